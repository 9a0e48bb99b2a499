import i18n from "../i18n";
import { useTranslation } from "react-i18next";
import { useEffect, useState } from "react";
import { defaultUrlTransform } from "react-markdown";
import type { Components } from "react-markdown";
import { ImageOff } from "lucide-react";
import { fetchRaw } from "../api/resources";
import { messageOf } from "../ui/errors";
import { classifyImage } from "./imageSource";

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

/** WorkspaceImage fetches a file of the workspace with the bearer token and shows it from a blob: URL. */
function WorkspaceImage({ uri, alt }: { uri: string; alt: string }) {
  const [url, setURL] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const ac = new AbortController();
    let objectURL: string | null = null;
    setURL(null);
    setError(null);
    fetchRaw(uri, ac.signal)
      .then((blob) => {
        if (!blob.type.startsWith("image/")) throw new Error(i18n.t("preview:image.notImage", { uri }));
        objectURL = URL.createObjectURL(blob);
        setURL(objectURL);
      })
      .catch((err: unknown) => {
        if (!ac.signal.aborted) setError(messageOf(err));
      });
    return () => {
      ac.abort();
      if (objectURL) URL.revokeObjectURL(objectURL);
    };
  }, [uri]);
  if (error) {
    return (
      <span className="remote-image" role="img" aria-label={alt}>
        <ImageOff size={14} aria-hidden /> {alt || uri}: {error}
      </span>
    );
  }
  return url ? <img src={url} alt={alt} data-workspace-image={uri} /> : <span className="muted">{alt || i18n.t("preview:image.image")}…</span>;
}

/** urlTransform keeps an image's src as written, for imageComponent to judge; links get the default filter. */
export function urlTransform(url: string, key: string): string {
  return key === "src" ? url : defaultUrlTransform(url);
}
