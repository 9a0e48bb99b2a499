// Arrow keys in a menu (the WAI-ARIA menu pattern): Down and Up move and wrap,
// Home and End jump to the ends.

/** menuMove is the index key moves to from at among n items, or null for a key that does not move. */
export function menuMove(at: number, n: number, key: string): number | null {
  if (n === 0) return null;
  switch (key) {
    case "ArrowDown":
      return at < 0 ? 0 : (at + 1) % n;
    case "ArrowUp":
      return at < 0 ? n - 1 : (at - 1 + n) % n;
    case "Home":
      return 0;
    case "End":
      return n - 1;
  }
  return null;
}
