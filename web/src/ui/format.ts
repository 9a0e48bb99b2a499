import { currentLanguage } from "../i18n";

/** formatBytes shows a size in B, KB, MB or GB (1024-based). */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return "";
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

/** formatDate shows an ISO timestamp in the user's locale, or "" if invalid. */
export function formatDate(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? "" : new Date(t).toLocaleString(currentLanguage());
}

/** formatNumber groups digits the way the UI's language does (1,234 / 1,234 — and so on for others). */
export function formatNumber(n: number): string {
  return Number.isFinite(n) ? n.toLocaleString(currentLanguage()) : "";
}
