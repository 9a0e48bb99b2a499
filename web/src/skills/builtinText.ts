// The built-in skills' titles and descriptions come from the server in
// English; the web words them in the reader's language by the skill's id.
// A user's own skill is shown as its owner wrote it.

import type { TFunction } from "i18next";

interface Shown {
  id: string;
  builtin?: boolean;
  name: string;
  title?: string;
  description?: string;
}

const builtinName = (s: Shown) => (s.builtin && s.id.startsWith("builtin:") ? s.id.slice("builtin:".length) : null);

/** skillTitle is how a picker names the skill. */
export function skillTitle(t: TFunction, s: Shown): string {
  const shown = s.title || s.name;
  const name = builtinName(s);
  return name ? t(`skills:builtinSkill.${name}.title`, { defaultValue: shown }) : shown;
}

/** skillDescription is the skill's description in the reader's language when built in. */
export function skillDescription(t: TFunction, s: Shown): string {
  const shown = s.description ?? "";
  const name = builtinName(s);
  return name ? t(`skills:builtinSkill.${name}.description`, { defaultValue: shown }) : shown;
}
