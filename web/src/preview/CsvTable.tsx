import { useMemo } from "react";
import Papa from "papaparse";
import { markText } from "./marks";
import { csvPageText } from "./paging";

/** CsvTable shows a CSV page as a table; the first file row is the header. */
export default function CsvTable(props: { text: string; first: boolean; last: boolean; tab: boolean; mark?: string }) {
  const rows = useMemo(() => {
    const body = csvPageText(props.text, props.first, props.last);
    const parsed = Papa.parse<string[]>(body, { delimiter: props.tab ? "\t" : "", skipEmptyLines: true });
    return parsed.data;
  }, [props.text, props.first, props.last, props.tab]);

  if (rows.length === 0) return <p className="muted">No complete rows on this page.</p>;
  const [head, ...rest] = props.first ? rows : [undefined, ...rows];
  return (
    <div className="csv-wrap">
      <table className="csv">
        {head && (
          <thead>
            <tr>
              {head.map((c, i) => (
                <th key={i}>{markText(c, props.mark)}</th>
              ))}
            </tr>
          </thead>
        )}
        <tbody>
          {rest.map((r, i) =>
            r ? (
              <tr key={i}>
                {r.map((c, j) => (
                  <td key={j}>{markText(c, props.mark)}</td>
                ))}
              </tr>
            ) : null,
          )}
        </tbody>
      </table>
    </div>
  );
}
