// Moving through a page by keyboard only, for the keyboard journeys.

import assert from "node:assert/strict";

/** focusedName is "role-or-tag:name" of document.activeElement. */
export function focusedName(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "body";
    const role = el.getAttribute("role") ?? el.tagName.toLowerCase();
    const name = el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 40) ?? "";
    return `${role}:${name}`;
  });
}

/** tabTo presses Tab until the focused element's name matches want (at most 60 times). */
export async function tabTo(page, want) {
  const seen = [];
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press("Tab");
    const name = await focusedName(page);
    if (want.test(name)) return;
    seen.push(name);
  }
  assert.fail(`Tab never reached ${want}; went through ${seen.join(" | ")}`);
}
