import { describe, expect, it } from "vitest";
import { batchBounds, setAsideTooLarge } from "./uploadLimits";

const f = (name: string, size: number) => new File([new Uint8Array(size)], name);
const limits = { max_file_bytes: 10, max_request_bytes: 0, max_files: 256 };

describe("setAsideTooLarge", () => {
  it("names each file over the limit and keeps the rest in order", () => {
    const { send, failed } = setAsideTooLarge([f("a", 10), f("big", 11), f("b", 1)], limits);
    expect(send.map((x) => x.name)).toEqual(["a", "b"]);
    expect(failed.map((x) => x.path)).toEqual(["big"]);
    expect(failed[0]?.message).toContain("10 B");
  });
  it("sends everything when the limits are not known", () => {
    expect(setAsideTooLarge([f("big", 1 << 20)]).send).toHaveLength(1);
  });
});

describe("batchBounds", () => {
  it("keeps the client's bounds under the server's request cap", () => {
    expect(batchBounds(100, 64 << 20, { max_file_bytes: 1 << 20, max_request_bytes: 1 << 20, max_files: 50 })).toEqual({ files: 50, bytes: (1 << 20) - 50 * 1024 });
  });
  it("leaves them when the server has no request cap", () => {
    expect(batchBounds(100, 64, limits)).toEqual({ files: 100, bytes: 64 });
  });
});
