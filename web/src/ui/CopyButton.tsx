import { useState } from "react";

interface Props {
  text: string;
  label: string;
  copiedLabel: string;
  ariaLabel?: string;
  /** onFail is told when the browser refuses (no clipboard outside a secure context) */
  onFail: () => void;
}

/** CopyButton puts text on the clipboard and says so on its own label. */
export function CopyButton({ text, label, copiedLabel, ariaLabel, onFail }: Props) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      onFail();
    }
  }
  return (
    <button type="button" className="btn small" aria-label={ariaLabel} onClick={copy}>
      {copied ? copiedLabel : label}
    </button>
  );
}
