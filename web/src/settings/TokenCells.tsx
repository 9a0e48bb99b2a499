import { useTranslation } from "react-i18next";
import { formatDate } from "../ui/format";
import { usePlaceName } from "../ui/placeName";
import type { APIToken } from "./api";

/** TokenCells are the table cells one token shows wherever tokens are listed: name with prefix, created, last used, expiry, scope. */
export function TokenCells({ token }: { token: APIToken }) {
  const { t } = useTranslation("settings");
  const place = usePlaceName();
  return (
    <>
      <td>
        {token.name} <code className="muted small">{token.prefix}…</code>
      </td>
      <td>{formatDate(token.created_at)}</td>
      <td>{token.last_used_at ? formatDate(token.last_used_at) : t("tokens.neverUsed")}</td>
      <td>{token.expires_at ? formatDate(token.expires_at) : t("tokens.never")}</td>
      <td data-testid="token-scope">
        {token.scope_uri ? <code>{place(token.scope_uri)}</code> : t("tokens.wholeWorkspace")}
        {token.read_only && <span className="tag">{t("tokens.readOnlyTag")}</span>}
      </td>
    </>
  );
}
