import { describe, expect, it } from "vitest";
import { addressesAsMe, placeName } from "./placeName";

const root = "kb://users/ana/";

describe("placeName", () => {
  it("names the own root Home and the rest by path", () => {
    expect(placeName(root, root, "Home")).toBe("Home");
    expect(placeName("kb://me/", root, "Home")).toBe("Home");
    expect(placeName(root + "notes/plan.md", root, "Home")).toBe("notes/plan.md");
    expect(placeName("kb://me/notes/", root, "Home")).toBe("notes/");
  });
  it("names another user's file by owner and path", () => {
    expect(placeName("kb://users/bob/shared/x.md", root, "Home")).toBe("bob/shared/x.md");
  });
  it("shows the URI when there is no session", () => {
    expect(placeName(root + "a.md", null, "Home")).toBe(root + "a.md");
  });
});

describe("addressesAsMe", () => {
  it("writes the own root as kb://me/ and leaves others", () => {
    expect(addressesAsMe('{"uri": "kb://users/ana/notes/", "b": "kb://users/bob/"}', root)).toBe('{"uri": "kb://me/notes/", "b": "kb://users/bob/"}');
  });
});
