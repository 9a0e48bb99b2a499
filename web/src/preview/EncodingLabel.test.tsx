// The label names a legacy encoding and stays away for UTF-8 and binary files.

import { act } from "react";
import { createRoot } from "react-dom/client";
import type { Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EncodingLabel } from "./EncodingLabel";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe("EncodingLabel", () => {
  let host: HTMLDivElement;
  let root: Root;
  beforeEach(() => {
    host = document.createElement("div");
    document.body.append(host);
    root = createRoot(host);
  });
  afterEach(() => {
    act(() => root.unmount());
    host.remove();
  });

  it("names a legacy encoding and says the download is unchanged", () => {
    act(() => root.render(<EncodingLabel encoding="shift_jis" />));
    const label = host.querySelector<HTMLElement>("[data-testid=preview-encoding]");
    expect(label?.textContent).toBe("SHIFT_JIS");
    expect(label?.title).toContain("original bytes");
  });

  it("shows nothing for UTF-8 or a file without text", () => {
    act(() => root.render(<EncodingLabel encoding="utf-8" />));
    expect(host.innerHTML).toBe("");
    act(() => root.render(<EncodingLabel />));
    expect(host.innerHTML).toBe("");
  });
});
