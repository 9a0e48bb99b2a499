import { describe, expect, it } from "vitest";
import { pageTitle } from "./pageTitle";

const ROOT = "kb://users/ann/";

describe("pageTitle", () => {
  it("names the open file or folder", () => {
    expect(pageTitle(`${ROOT}notes/会议纪要.md`, ROOT, "Home")).toBe("会议纪要.md — Knowspace");
    expect(pageTitle(`${ROOT}notes/2026/`, ROOT, "Home")).toBe("2026/ — Knowspace");
    expect(pageTitle("kb://users/bob/shared-plans/", ROOT, "Home")).toBe("shared-plans/ — Knowspace");
  });
  it("says home at the root and with nothing open", () => {
    expect(pageTitle(ROOT, ROOT, "主目录")).toBe("主目录 — Knowspace");
    expect(pageTitle(null, ROOT, "Home")).toBe("Home — Knowspace");
  });
});
