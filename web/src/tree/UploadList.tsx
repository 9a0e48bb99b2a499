import { useTranslation } from "react-i18next";
import { X } from "lucide-react";
import type { UploadJob } from "./useUploads";
import { formatBytes } from "../ui/format";
import type { TFunction } from "i18next";

const running = (j: UploadJob) => j.state === "uploading" || j.state === "asking";

function statusText(t: TFunction, j: UploadJob, pct: number): string {
  switch (j.state) {
    case "uploading":
      return t("upload.progress", { pct, total: formatBytes(j.total) });
    case "asking":
      return t("upload.asking");
    case "done":
      return j.note ? t("upload.doneNote", { note: j.note }) : t("upload.done");
    case "cancelled":
      return t("upload.cancelled");
    default:
      return t("upload.failed");
  }
}

/** UploadList shows running and failed uploads with their progress. */
export function UploadList({ jobs, onDismiss }: { jobs: UploadJob[]; onDismiss: (id: number) => void }) {
  const { t } = useTranslation("tree");
  if (jobs.length === 0) return null;
  return (
    <ul className="uploads" aria-label={t("upload.list")}>
      {jobs.map((j) => {
        const pct = j.total > 0 ? Math.min(100, Math.round((j.loaded / j.total) * 100)) : j.state === "done" ? 100 : 0;
        return (
          <li key={j.id} className={`upload ${j.state}`} data-state={j.state}>
            <div className="upload-line">
              <span className="upload-name" title={j.label}>
                {j.label}
              </span>
              <span className="upload-status">
                {statusText(t, j, pct)}
              </span>
              <button
                type="button"
                className="icon-btn"
                aria-label={running(j) ? t("upload.cancel", { name: j.label }) : t("upload.dismiss", { name: j.label })}
                onClick={() => (running(j) ? j.abort() : onDismiss(j.id))}
              >
                <X size={14} aria-hidden />
              </button>
            </div>
            <progress max={100} value={pct} aria-label={t("upload.of", { name: j.label })} />
            {j.current && j.files > 1 && running(j) && (
              <p className="upload-current small" title={j.current}>
                {t("upload.current", { name: j.current })}
              </p>
            )}
            {j.error && <p className="error small">{j.error}</p>}
            {j.failed.length > 0 && !(j.files === 1 && j.error) && (
              <details className="upload-failed" open>
                <summary>{t("upload.failedList", { count: j.failed.length })}</summary>
                <ul aria-label={t("upload.failedList", { count: j.failed.length })}>
                  {j.failed.map((f) => (
                    <li key={f.path}>
                      <span className="upload-failed-path">{f.path}</span>: {f.message}
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </li>
        );
      })}
    </ul>
  );
}
