// Signed in, the next action is in the tree: the keyboard lands there
// instead of on the page's body (the form that had it is gone). A page
// loaded with a kept session keeps the browser's start, so its skip link
// stays the first Tab stop.

import { useEffect } from "react";
import type { RefObject } from "react";

/** useFocusOnArrival focuses target once, on mount, when arrived and focus is on no element. */
export function useFocusOnArrival(target: RefObject<HTMLElement | null>, arrived: boolean) {
  useEffect(() => {
    if (!arrived) return;
    const active = document.activeElement;
    if (active === null || active === document.body) target.current?.focus({ preventScroll: true });
    // Once, on arrival: later renders leave focus to the user.
  }, []);
}
