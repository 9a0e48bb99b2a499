// The conversation list is grouped by the local day of each conversation's
// last activity: "Today", "Yesterday", then dates in the user's locale.

export interface DayGroup<T> {
  /** the local day, YYYY-MM-DD: a stable React key */
  key: string;
  /** the heading: "today", "yesterday", or a date in the locale */
  label: { kind: "today" | "yesterday" } | { kind: "date"; text: string };
  items: T[];
}

function dayKey(d: Date): string {
  const m = String(d.getMonth() + 1).padStart(2, "0");
  const day = String(d.getDate()).padStart(2, "0");
  return `${d.getFullYear()}-${m}-${day}`;
}

/**
 * groupByDay keeps the order of items (newest first) and starts a group at
 * each new local day of when(item). A date of this year leaves the year out.
 */
export function groupByDay<T>(items: readonly T[], when: (item: T) => string, now: Date, locale: string): DayGroup<T>[] {
  const today = dayKey(now);
  const yesterday = dayKey(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1));
  const thisYear = new Intl.DateTimeFormat(locale, { weekday: "short", month: "short", day: "numeric" });
  const otherYear = new Intl.DateTimeFormat(locale, { year: "numeric", month: "short", day: "numeric" });
  const groups: DayGroup<T>[] = [];
  for (const item of items) {
    const t = new Date(when(item));
    const key = Number.isNaN(t.getTime()) ? "" : dayKey(t);
    const last = groups[groups.length - 1];
    if (last && last.key === key) {
      last.items.push(item);
      continue;
    }
    const label: DayGroup<T>["label"] =
      key === today
        ? { kind: "today" }
        : key === yesterday
          ? { kind: "yesterday" }
          : { kind: "date", text: key === "" ? "" : (t.getFullYear() === now.getFullYear() ? thisYear : otherYear).format(t) };
    groups.push({ key, label, items: [item] });
  }
  return groups;
}

/** timeOfDay is the hour and minute of an ISO time in the locale ("14:05", "2:05 PM"). */
export function timeOfDay(iso: string, locale: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? "" : new Intl.DateTimeFormat(locale, { hour: "numeric", minute: "2-digit" }).format(t);
}
