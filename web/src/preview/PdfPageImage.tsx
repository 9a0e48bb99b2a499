// One page of a scanned PDF, drawn by the server, shown beside its OCR
// text. The box keeps a page's shape from the start, so nothing moves when
// the image arrives, and the page is fetched only once it nears the view.

import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ImageOff } from "lucide-react";
import { fetchPageImage } from "../api/resources";
import { useObjectURL } from "./useObjectURL";

export function PdfPageImage({ uri, page, name }: { uri: string; page: number; name: string }) {
  const { t } = useTranslation("preview");
  const box = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);

  useEffect(() => {
    const el = box.current;
    if (!el || typeof IntersectionObserver === "undefined") {
      setNear(true);
      return;
    }
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setNear(true);
          io.disconnect();
        }
      },
      { rootMargin: "600px 0px" },
    );
    io.observe(el);
    return () => io.disconnect();
  }, []);

  const { url, error } = useObjectURL((signal) => fetchPageImage(uri, page, signal), `${uri}#${page}`, near);

  const alt = t("ocr.pageAlt", { page, name });
  return (
    <div ref={box} className="page-image" data-testid="preview-page-image" data-page={page}>
      {url ? (
        <img src={url} alt={alt} />
      ) : error ? (
        <span className="remote-image" role="img" aria-label={alt}>
          <ImageOff size={14} aria-hidden /> {error}
        </span>
      ) : (
        <span className="muted">{t("ocr.pageLoading", { page })}</span>
      )}
    </div>
  );
}
