import { useState } from "react";

interface Props {
  /** the text, or a function giving it at the click (a rendered element's text) */
  text: string | (() => string);
  label: string;
  copiedLabel: string;
  ariaLabel?: string;
  className?: string;
  /** onFail is told when the browser refuses (no clipboard outside a secure context) */
  onFail: () => void;
}

/** CopyButton puts text on the clipboard and says so on its own label. */
export function CopyButton({ text, label, copiedLabel, ariaLabel, className, onFail }: Props) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(typeof text === "function" ? text() : text);
      setCopied(true);
    } catch {
      onFail();
    }
  }
  return (
    <button type="button" className={className ?? "btn small"} aria-label={ariaLabel} onClick={copy}>
      {copied ? copiedLabel : label}
    </button>
  );
}
