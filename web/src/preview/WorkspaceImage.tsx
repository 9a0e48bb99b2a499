import i18n from "../i18n";
import { useEffect, useState } from "react";
import { ImageOff } from "lucide-react";
import { fetchRaw } from "../api/resources";
import { messageOf } from "../ui/errors";

/** WorkspaceImage fetches a file of the workspace with the bearer token and shows it from a blob: URL. */
export function WorkspaceImage({ uri, alt }: { uri: string; alt: string }) {
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
