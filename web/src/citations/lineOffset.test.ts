import { describe, expect, it } from "vitest";
import type { ContentPage } from "../api/types";
import { lineOffset, lineStart } from "./lineOffset";

describe("lineStart", () => {
  it("counts code points, not UTF-16 units", () => {
    expect(lineStart("a😀\nb\nc", 2)).toEqual({ offset: 3 });
    expect(lineStart("a😀\nb\nc", 3)).toEqual({ offset: 5 });
    expect(lineStart("one", 1)).toEqual({ offset: 0 });
  });
  it("reports the breaks seen when the line is beyond the text", () => {
    expect(lineStart("a\nb\n", 5)).toEqual({ breaks: 2 });
    expect(lineStart("x\n", 4, 2)).toEqual({ offset: 2 });
  });
});

describe("lineOffset", () => {
  const text = "l1\nl2\nl3\nl4\nl5\n";
  const pages = (size: number) => {
    const calls: number[] = [];
    const read = async (uri: string, offset = 0): Promise<ContentPage> => {
      calls.push(offset);
      const chunk = text.slice(offset, offset + size);
      const next = offset + size < text.length ? offset + size : null;
      return { uri, offset, limit: size, next_offset: next, total: text.length, body: "raw", text: chunk } satisfies ContentPage;
    };
    return { read, calls };
  };
  it("walks pages until the line starts", async () => {
    const p = pages(4);
    expect(await lineOffset("kb://users/a/x.txt", 4, p.read)).toBe(9);
    expect(p.calls).toEqual([0, 4, 8]);
  });
  it("opens at the start when the file is shorter or unreadable", async () => {
    expect(await lineOffset("kb://users/a/x.txt", 99, pages(6).read)).toBe(0);
    expect(await lineOffset("kb://users/a/x.txt", 3, () => Promise.reject(new Error("gone")))).toBe(0);
  });
});
