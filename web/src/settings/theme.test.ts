import { afterEach, describe, expect, it } from "vitest";
import { sectionOf } from "../layout/route";
import { applyTheme, chooseTheme, storedTheme, themeKey } from "./theme";

describe("theme", () => {
  afterEach(() => {
    localStorage.clear();
    document.documentElement.removeAttribute("data-theme");
  });

  it("remembers Light and Dark as data-theme, and System as no attribute", () => {
    chooseTheme("dark");
    expect(document.documentElement.getAttribute("data-theme")).toBe("dark");
    expect(storedTheme()).toBe("dark");
    chooseTheme("light");
    expect(document.documentElement.getAttribute("data-theme")).toBe("light");
    chooseTheme("system");
    expect(document.documentElement.hasAttribute("data-theme")).toBe(false);
    expect(localStorage.getItem(themeKey)).toBeNull();
    expect(storedTheme()).toBe("system");
  });

  it("ignores a stored value it does not know", () => {
    localStorage.setItem(themeKey, "neon");
    expect(storedTheme()).toBe("system");
    applyTheme(storedTheme());
    expect(document.documentElement.hasAttribute("data-theme")).toBe(false);
  });
});

describe("sectionOf", () => {
  const s = ["account", "tokens"] as const;
  it("picks the named section, else the first", () => {
    expect(sectionOf("/settings/tokens", "/settings", s)).toBe("tokens");
    expect(sectionOf("/settings/tokens/extra", "/settings", s)).toBe("tokens");
    expect(sectionOf("/settings", "/settings", s)).toBe("account");
    expect(sectionOf("/settings/bogus", "/settings", s)).toBe("account");
  });
});
