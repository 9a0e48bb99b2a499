import { useRef, useState } from "react";
import type { ComponentProps } from "react";
import type { ExtraProps } from "react-markdown";
import { useTranslation } from "react-i18next";
import { CopyButton } from "../ui/CopyButton";

/**
 * CodeBlock is a markdown code block with a copy button: what a user most
 * often takes out of an answer is a command or a snippet, whole.
 */
export function CodeBlock({ node: _node, ...props }: ComponentProps<"pre"> & ExtraProps) {
  const { t } = useTranslation("preview");
  const pre = useRef<HTMLPreElement>(null);
  const [failed, setFailed] = useState(false);
  return (
    <div className="code-block">
      <CopyButton
        className="btn small code-copy"
        text={() => pre.current?.textContent ?? ""}
        label={failed ? t("code.copyFailed") : t("code.copy")}
        copiedLabel={t("code.copied")}
        ariaLabel={t("code.copyAria")}
        onFail={() => setFailed(true)}
      />
      <pre ref={pre} {...props} />
    </div>
  );
}
