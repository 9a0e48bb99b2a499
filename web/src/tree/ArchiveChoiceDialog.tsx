// Asks whether a dropped or chosen archive is imported as a folder (a job in
// the task center) or stored as the file it is.

import { useTranslation } from "react-i18next";
import { Dialog } from "../ui/Dialog";

export function ArchiveChoiceDialog(props: { name: string; onImport: () => void; onUpload: () => void; onCancel: () => void }) {
  const { t } = useTranslation("tree");
  return (
    <Dialog title={t("archive.title")} onClose={props.onCancel} className="archive-dialog">
      <div className="dialog-text">
        <p>{t("archive.question", { name: props.name })}</p>
        <p className="muted small">{t("archive.hint")}</p>
      </div>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={props.onCancel}>
          {t("common:cancel")}
        </button>
        <button type="button" className="btn" onClick={props.onUpload}>
          {t("archive.upload")}
        </button>
        <button type="button" className="btn primary" onClick={props.onImport} autoFocus>
          {t("archive.import")}
        </button>
      </div>
    </Dialog>
  );
}
