import { useTranslation } from "react-i18next";
import { defaultUrlTransform } from "react-markdown";
import type { Components } from "react-markdown";
import { ImageOff } from "lucide-react";
import { classifyImage } from "./imageSource";
import { WorkspaceImage } from "./WorkspaceImage";

/** imageComponent renders markdown images for a document at base (none for a chat answer). */
export function imageComponent(base?: string): Components["img"] {
  return function MarkdownImage({ src, alt }) {
    const source = classifyImage(typeof src === "string" ? src : undefined, base);
    switch (source.kind) {
      case "inline":
        return <img src={source.src} alt={alt ?? ""} />;
      case "workspace":
        return <WorkspaceImage uri={source.uri} alt={alt ?? ""} />;
      default:
        return <RemoteImage url={source.url} alt={alt ?? ""} />;
    }
  };
}

/** RemoteImage names the image and its address; following the link is the reader's choice. */
function RemoteImage({ url, alt }: { url: string; alt: string }) {
  const { t } = useTranslation("preview");
  const href = defaultUrlTransform(url);
  const label = (
    <>
      <ImageOff size={14} aria-hidden /> {alt ? `${alt}: ` : t("image.notLoaded")}
      <span className="remote-image-url">{url}</span>
    </>
  );
  return href ? (
    <a className="remote-image" href={href} target="_blank" rel="noopener noreferrer" title={t("image.remote")} data-remote-image="">
      {label}
    </a>
  ) : (
    <span className="remote-image" data-remote-image="">
      {label}
    </span>
  );
}

/** urlTransform keeps an image's src as written, for imageComponent to judge; links get the default filter. */
export function urlTransform(url: string, key: string): string {
  return key === "src" ? url : defaultUrlTransform(url);
}
