import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ZoomIn, ZoomOut } from "lucide-react";
import { WorkspaceImage } from "./WorkspaceImage";

/**
 * ZoomableImage shows a workspace image fitted to its column; its button
 * shows it at its actual size, scrolled within the column, and back.
 */
export function ZoomableImage({ uri, alt }: { uri: string; alt: string }) {
  const { t } = useTranslation("preview");
  const [full, setFull] = useState(false);
  return (
    <div className={full ? "zoomable full" : "zoomable"}>
      <button
        type="button"
        className="icon-btn zoom-toggle"
        aria-pressed={full}
        aria-label={t("image.actualSize")}
        title={t("image.actualSize")}
        onClick={() => setFull((f) => !f)}
      >
        {full ? <ZoomOut size={14} aria-hidden /> : <ZoomIn size={14} aria-hidden />}
      </button>
      <div className="zoomable-view">
        <WorkspaceImage uri={uri} alt={alt} />
      </div>
    </div>
  );
}
