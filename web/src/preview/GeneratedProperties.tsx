import { useTranslation } from "react-i18next";
import { displayPath } from "../api/uri";
import type { FrontMatter } from "./frontMatter";

/**
 * GeneratedProperties shows a compiled file's provenance as properties:
 * what it is, which model and skill wrote it and when, and its sources,
 * each opening the file it was made from.
 */
export function GeneratedProperties({ meta, root, onOpen }: { meta: FrontMatter; root: string; onOpen?: (uri: string) => void }) {
  const { t, i18n } = useTranslation("preview");
  const f = meta.fields;
  const when = f.generated_at ? new Date(f.generated_at) : null;
  const role = f.role ? t(`properties.roles.${f.role}`, { defaultValue: f.role }) : t("properties.generated");
  return (
    <section className="front-matter" aria-label={t("properties.title")} data-testid="front-matter">
      <dl>
        <dt>{t("properties.kind")}</dt>
        <dd>
          <span className="badge generated">{role}</span>
        </dd>
        {f.model && (
          <>
            <dt>{t("properties.model")}</dt>
            <dd>{f.model}</dd>
          </>
        )}
        {f.skill && (
          <>
            <dt>{t("properties.skill")}</dt>
            <dd>{f.skill}</dd>
          </>
        )}
        {when && !Number.isNaN(when.getTime()) && (
          <>
            <dt>{t("properties.date")}</dt>
            <dd>
              <time dateTime={f.generated_at}>{when.toLocaleString(i18n.language)}</time>
            </dd>
          </>
        )}
        {meta.sources.length > 0 && (
          <>
            <dt>{t("properties.sources", { count: meta.sources.length })}</dt>
            <dd>
              <ul>
                {meta.sources.map((s) =>
                  s.uri ? (
                    <li key={s.uri}>
                      {onOpen ? (
                        <button type="button" className="link" onClick={() => onOpen(s.uri as string)}>
                          {displayPath(s.uri, root)}
                        </button>
                      ) : (
                        displayPath(s.uri, root)
                      )}
                      {s.pages && <span className="muted"> · {t("properties.pages", { count: Number(s.pages) })}</span>}
                    </li>
                  ) : null,
                )}
              </ul>
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}
