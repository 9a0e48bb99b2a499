// Focus containment for modal dialogs. The native <dialog> opened with
// showModal() makes the page behind it inert, but Tab past its last control
// still leaves for the browser's own UI (and lands on <body> in headless
// runs); trapTab keeps Tab and Shift+Tab cycling inside the dialog.

const CANDIDATES = [
  "a[href]",
  "area[href]",
  "button:not([disabled])",
  "input:not([disabled]):not([type='hidden'])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  "summary",
  "iframe",
  "[contenteditable]:not([contenteditable='false'])",
  "[tabindex]",
].join(",");

function visible(el: HTMLElement): boolean {
  if (el.closest("[hidden], [inert]")) return false;
  // checkVisibility knows display:none and visibility:hidden (absent in jsdom, which has no layout).
  return typeof el.checkVisibility === "function" ? el.checkVisibility({ visibilityProperty: true }) : true;
}

/** tabbables lists the elements of root that Tab visits, in document order. */
export function tabbables(root: HTMLElement): HTMLElement[] {
  const out: HTMLElement[] = [];
  for (const el of root.querySelectorAll<HTMLElement>(CANDIDATES)) {
    if (el.tabIndex < 0) continue;
    if (el.closest("details:not([open])") && el.tagName !== "SUMMARY") continue;
    // Only the checked radio of a group (or its first) takes part in Tab.
    if (el instanceof HTMLInputElement && el.type === "radio" && el.name) {
      const group = [...root.querySelectorAll<HTMLInputElement>('input[type="radio"]')].filter((r) => r.name === el.name);
      const stop = group.find((r) => r.checked) ?? group[0];
      if (stop !== el) continue;
    }
    if (visible(el)) out.push(el);
  }
  return out;
}

/**
 * trapTab handles a Tab key press inside root: at the last tabbable (or the
 * first with Shift) it moves focus round to the other end, and it pulls focus
 * back in from outside. It returns true when it moved focus itself (the
 * caller then prevents the default).
 */
export function trapTab(root: HTMLElement, shift: boolean, active: Element | null): boolean {
  const list = tabbables(root);
  if (list.length === 0) return true;
  const first = list[0]!;
  const last = list[list.length - 1]!;
  const inside = active instanceof HTMLElement && root.contains(active) && active !== root;
  if (!inside) {
    (shift ? last : first).focus();
    return true;
  }
  if (shift && active === first) {
    last.focus();
    return true;
  }
  if (!shift && active === last) {
    first.focus();
    return true;
  }
  return false;
}
