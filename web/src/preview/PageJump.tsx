import { useEffect, useState } from "react";
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { formatNumber } from "../ui/format";

/** PageJump is "Page [n] of N": a page number to type, Enter goes there (clamped to the pages). */
export function PageJump({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  const { t } = useTranslation("preview");
  const [draft, setDraft] = useState(String(page));
  useEffect(() => setDraft(String(page)), [page]);
  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const n = Number.parseInt(draft, 10);
    if (Number.isFinite(n)) onPage(Math.min(Math.max(1, n), pages));
    else setDraft(String(page));
  }
  return (
    <form className="pager-jump" onSubmit={onSubmit}>
      <label>
        {t("pager.page")}{" "}
        <input
          className="text-input page-input"
          inputMode="numeric"
          aria-label={t("pager.number", { pages })}
          value={draft}
          onChange={(e) => setDraft(e.target.value.replace(/[^0-9]/g, ""))}
          onBlur={() => setDraft(String(page))}
        />
      </label>{" "}
      <span>{t("pager.of", { pages: formatNumber(pages) })}</span>
    </form>
  );
}
