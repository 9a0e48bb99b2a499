import { X } from "lucide-react";
import type { UploadJob } from "./useUploads";
import { formatBytes } from "../ui/format";

const running = (j: UploadJob) => j.state === "uploading" || j.state === "asking";

function statusText(j: UploadJob, pct: number): string {
  switch (j.state) {
    case "uploading":
      return `${pct}% of ${formatBytes(j.total)}`;
    case "asking":
      return "Name taken: waiting";
    case "done":
      return j.note ? `Uploaded, ${j.note}` : "Uploaded";
    case "cancelled":
      return "Cancelled";
    default:
      return "Failed";
  }
}

/** UploadList shows running and failed uploads with their progress. */
export function UploadList({ jobs, onDismiss }: { jobs: UploadJob[]; onDismiss: (id: number) => void }) {
  if (jobs.length === 0) return null;
  return (
    <ul className="uploads" aria-label="Uploads">
      {jobs.map((j) => {
        const pct = j.total > 0 ? Math.min(100, Math.round((j.loaded / j.total) * 100)) : j.state === "done" ? 100 : 0;
        return (
          <li key={j.id} className={`upload ${j.state}`} data-state={j.state}>
            <div className="upload-line">
              <span className="upload-name" title={j.label}>
                {j.label}
              </span>
              <span className="upload-status">
                {statusText(j, pct)}
              </span>
              <button
                type="button"
                className="icon-btn"
                aria-label={running(j) ? `Cancel upload of ${j.label}` : `Dismiss ${j.label}`}
                onClick={() => (running(j) ? j.abort() : onDismiss(j.id))}
              >
                <X size={14} aria-hidden />
              </button>
            </div>
            <progress max={100} value={pct} aria-label={`Upload of ${j.label}`} />
            {j.error && <p className="error small">{j.error}</p>}
          </li>
        );
      })}
    </ul>
  );
}
