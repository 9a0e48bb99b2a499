import i18n from "../i18n";
import { ImageOff } from "lucide-react";
import { fetchRaw } from "../api/resources";
import { useObjectURL } from "./useObjectURL";

/** WorkspaceImage fetches a file of the workspace with the bearer token and shows it from a blob: URL. */
export function WorkspaceImage({ uri, alt }: { uri: string; alt: string }) {
  const { url, error } = useObjectURL(async (signal) => {
    const blob = await fetchRaw(uri, signal);
    if (!blob.type.startsWith("image/")) throw new Error(i18n.t("preview:image.notImage", { uri }));
    return blob;
  }, uri);
  if (error) {
    return (
      <span className="remote-image" role="img" aria-label={alt}>
        <ImageOff size={14} aria-hidden /> {alt || uri}: {error}
      </span>
    );
  }
  return url ? <img src={url} alt={alt} data-workspace-image={uri} /> : <span className="muted">{alt || i18n.t("preview:image.image")}…</span>;
}
