// A small label beside a file's name when its bytes were not UTF-8: the
// preview shows decoded text, the download keeps the original bytes.

export function EncodingLabel({ encoding }: { encoding?: string }) {
  if (!encoding || encoding === "utf-8") return null;
  const name = encoding.toUpperCase();
  return (
    <span
      className="badge encoding-label"
      data-testid="preview-encoding"
      title={`Decoded from ${name}; the download keeps the original bytes`}
    >
      {name}
    </span>
  );
}
