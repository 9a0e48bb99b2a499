// A scanned image beside its recognized text is fitted to its column; its
// button shows it at full size, scrolled within the column, and back.

import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mountEach } from "../testing/mount";
import "../i18n";
import type { ContentPage } from "../api/types";
import { PageBody } from "./FilePreview";

const scan = {
  uri: "kb://users/a/receipt.png",
  offset: 0,
  limit: 6000,
  next_offset: null,
  total: 12,
  body: "l2",
  text: "Total: 12.50",
  source: "ocr",
} as ContentPage;

describe("a scanned image", () => {
  const page = mountEach();
  beforeEach(() => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response(new Uint8Array([137, 80, 78, 71]), { headers: { "Content-Type": "image/png" } })));
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL: () => "blob:receipt", revokeObjectURL: () => {} }));
  });
  afterEach(() => vi.unstubAllGlobals());

  it("is shown fitted, and at full size on demand", async () => {
    page.render(<PageBody page={scan} name="receipt.png" />);
    await vi.waitFor(() => expect(page.host.innerHTML).toContain("blob:receipt"));
    const toggle = page.host.querySelector<HTMLButtonElement>('button[aria-label="Actual size"]');
    expect(toggle?.getAttribute("aria-pressed")).toBe("false");
    act(() => toggle?.click());
    expect(toggle?.getAttribute("aria-pressed")).toBe("true");
    expect(page.host.querySelector(".zoomable")?.classList.contains("full")).toBe(true);
    act(() => toggle?.click());
    expect(page.host.querySelector(".zoomable")?.classList.contains("full")).toBe(false);
  });
});
