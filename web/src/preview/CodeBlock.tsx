import { useRef, useState } from "react";
import type { ComponentProps } from "react";
import type { ExtraProps } from "react-markdown";
import { useTranslation } from "react-i18next";

/**
 * CodeBlock is a markdown code block with a copy button: what a user most
 * often takes out of an answer is a command or a snippet, whole.
 */
export function CodeBlock({ node: _node, ...props }: ComponentProps<"pre"> & ExtraProps) {
  const { t } = useTranslation("preview");
  const pre = useRef<HTMLPreElement>(null);
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  async function copy() {
    try {
      // The clipboard needs a secure context; over plain http it is absent.
      await navigator.clipboard.writeText(pre.current?.textContent ?? "");
      setState("copied");
    } catch {
      setState("failed");
    }
  }
  return (
    <div className="code-block">
      <button type="button" className="btn small code-copy" aria-label={t("code.copyAria")} title={state === "failed" ? t("code.copyFailed") : undefined} onClick={copy}>
        {state === "copied" ? t("code.copied") : state === "failed" ? t("code.copyFailed") : t("code.copy")}
      </button>
      <pre ref={pre} {...props} />
    </div>
  );
}
