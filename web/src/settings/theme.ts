// The colour theme: follow the system, or a remembered Light or Dark. It is
// a data-theme attribute on <html> that styles.css reads.

export const themes = ["system", "light", "dark"] as const;
export type Theme = (typeof themes)[number];

export const themeKey = "knowspace.theme";

/** storedTheme is the remembered choice, "system" when none. */
export function storedTheme(): Theme {
  let v: string | null = null;
  try {
    v = localStorage.getItem(themeKey);
  } catch {
    // storage refused (private mode): follow the system
  }
  return (themes as readonly string[]).includes(v ?? "") ? (v as Theme) : "system";
}

/** applyTheme sets the attribute; "system" removes it so the OS decides. */
export function applyTheme(theme: Theme) {
  const root = document.documentElement;
  if (theme === "system") root.removeAttribute("data-theme");
  else root.setAttribute("data-theme", theme);
}

/** chooseTheme applies and remembers a theme. */
export function chooseTheme(theme: Theme) {
  try {
    if (theme === "system") localStorage.removeItem(themeKey);
    else localStorage.setItem(themeKey, theme);
  } catch {
    // not remembered, still applied
  }
  applyTheme(theme);
}
