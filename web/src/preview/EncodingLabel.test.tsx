// The label names a legacy encoding and stays away for UTF-8 and binary files.

import { describe, expect, it } from "vitest";
import { mountEach } from "../testing/mount";
import { EncodingLabel } from "./EncodingLabel";

describe("EncodingLabel", () => {
  const page = mountEach();

  it("names a legacy encoding and says the download is unchanged", () => {
    page.render(<EncodingLabel encoding="shift_jis" />);
    const label = page.host.querySelector<HTMLElement>("[data-testid=preview-encoding]");
    expect(label?.textContent).toBe("SHIFT_JIS");
    expect(label?.title).toContain("original bytes");
  });

  it("shows nothing for UTF-8 or a file without text", () => {
    page.render(<EncodingLabel encoding="utf-8" />);
    expect(page.host.innerHTML).toBe("");
    page.render(<EncodingLabel />);
    expect(page.host.innerHTML).toBe("");
  });
});
