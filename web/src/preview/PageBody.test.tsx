// A document whose text is still being extracted says so (and is asked for
// again by the preview); one whose extraction failed says why; a file with
// no text and no extraction keeps the plain "no text body" state.

import { act } from "react";
import { describe, expect, it } from "vitest";
import { mountEach } from "../testing/mount";
import "../i18n";
import type { ContentPage } from "../api/types";
import { PageBody } from "./FilePreview";

const none = (extra: Partial<ContentPage>): ContentPage =>
  ({ uri: "kb://users/a/x.pdf", offset: 0, limit: 6000, next_offset: null, total: 0, body: "none", text: "", ...extra }) as ContentPage;

describe("PageBody without text", () => {
  const page = mountEach();

  it("says the text is being extracted", () => {
    page.render(<PageBody page={none({ text_state: "text_pending" })} name="x.pdf" />);
    const box = page.host.querySelector('[data-testid="preview-extracting"]');
    expect(box?.textContent).toContain("Extracting the text of this file");
    expect(box?.getAttribute("role")).toBe("status");
  });

  it("says how far a long extraction has come", () => {
    page.render(<PageBody page={none({ text_state: "text_pending", text_progress: { pages: 3, of: 120 } })} name="scan.pdf" />);
    const box = page.host.querySelector('[data-testid="preview-extracting"]');
    expect(box?.textContent).toContain("3 of 120 pages read");
    expect(box?.querySelector("progress")?.getAttribute("value")).toBe("3");
    expect(box?.querySelector("progress")?.getAttribute("max")).toBe("120");
  });

  it("says why the extraction failed", () => {
    act(() =>
      page.root.render(<PageBody page={none({ text_state: "text_failed", note: "extracting the text of this file failed: the PDF is damaged" })} name="x.pdf" />),
    );
    const box = page.host.querySelector('[data-testid="preview-text-failed"]');
    expect(box?.textContent).toContain("could not be extracted");
    expect(box?.textContent).toContain("the PDF is damaged");
  });

  it("keeps the plain state when nothing is extracted", () => {
    page.render(<PageBody page={none({})} name="x.bin" />);
    expect(page.host.querySelector('[data-testid="preview-no-body"]')).not.toBeNull();
    expect(page.host.querySelector('[data-testid="preview-extracting"]')).toBeNull();
  });
});
