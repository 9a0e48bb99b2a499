import { useTranslation } from "react-i18next";
import { BookOpen, FileText } from "lucide-react";

/** PreviewView is how a document is shown: its pages as drawn, or its extracted text. */
export type PreviewView = "pages" | "text";

/** ViewSwitch flips a document's preview between its pages and its text. */
export function ViewSwitch({ view, onChange }: { view: PreviewView; onChange: (v: PreviewView) => void }) {
  const { t } = useTranslation("preview");
  return (
    <div className="view-switch" role="group" aria-label={t("view.label")}>
      <button type="button" className="btn small" aria-pressed={view === "pages"} onClick={() => onChange("pages")}>
        <BookOpen size={14} aria-hidden /> {t("view.pages")}
      </button>
      <button type="button" className="btn small" aria-pressed={view === "text"} onClick={() => onChange("text")}>
        <FileText size={14} aria-hidden /> {t("view.text")}
      </button>
    </div>
  );
}
