import { useTranslation } from "react-i18next";
import { useState } from "react";
import { Download, LoaderCircle } from "lucide-react";
import { fetchRaw } from "../api/resources";
import { messageOf } from "../ui/errors";
import { saveBlob } from "../ui/saveBlob";

/** DownloadButton fetches the raw bytes with the bearer token and saves them. */
export function DownloadButton({ uri, name }: { uri: string; name: string }) {
  const { t } = useTranslation("preview");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function download() {
    setBusy(true);
    setError(null);
    try {
      saveBlob(await fetchRaw(uri), name);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <button type="button" className="btn small" onClick={download} disabled={busy} title={t("downloadTitle")}>
        {busy ? <LoaderCircle size={14} className="spin" aria-hidden /> : <Download size={14} aria-hidden />} {t("download")}
      </button>
      {error && (
        <span className="error small" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
