// A small label beside a file's name when its bytes were not UTF-8: the
// preview shows decoded text, the download keeps the original bytes.

import { useTranslation } from "react-i18next";

export function EncodingLabel({ encoding }: { encoding?: string }) {
  const { t } = useTranslation("preview");
  if (!encoding || encoding === "utf-8") return null;
  const name = encoding.toUpperCase();
  return (
    <span
      className="badge encoding-label"
      data-testid="preview-encoding"
      title={t("decodedFrom", { name })}
    >
      {name}
    </span>
  );
}
