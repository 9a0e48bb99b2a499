import type { UseQueryResult } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { messageOf } from "./errors";

/**
 * QueryStatus says in words what a query has not yet given: that it is
 * loading, why it failed, or (given `empty`) that its list holds nothing.
 * It renders nothing once there is data to show.
 */
export function QueryStatus({ query, empty }: { query: UseQueryResult<unknown>; empty?: string }) {
  const { t } = useTranslation("common");
  if (query.isPending) return <p className="muted">{t("loading")}</p>;
  if (query.isError)
    return (
      <p className="error" role="alert">
        {messageOf(query.error)}
      </p>
    );
  if (empty && Array.isArray(query.data) && query.data.length === 0) return <p className="muted">{empty}</p>;
  return null;
}

/** Outcome shows the last action's error as an alert and its success in a polite status line that is always present, so screen readers hear it. */
export function Outcome({ error, notice, className = "" }: { error: string | null; notice: string | null; className?: string }) {
  return (
    <>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <p className={`muted small ${className}`.trim()} role="status">
        {notice}
      </p>
    </>
  );
}
