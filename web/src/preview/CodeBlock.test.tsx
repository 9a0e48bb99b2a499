// A code block in an answer or a markdown page copies its code, whole.

import { act } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mountEach } from "../testing/mount";
import MarkdownView from "./MarkdownView";

const ANSWER = "Run this:\n\n```sh\nmake run\nmake test\n```\n\nand then `open` it.\n";

describe("CodeBlock", () => {
  const page = mountEach();
  afterEach(() => vi.unstubAllGlobals());

  const clickCopy = async () => {
    const buttons = page.host.querySelectorAll<HTMLButtonElement>(".code-copy");
    expect(buttons).toHaveLength(1); // the inline `open` gets none
    await act(async () => buttons[0]!.click());
    return buttons[0]!;
  };

  it("copies the block's code in an answer", async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    page.render(<MarkdownView text={ANSWER} answer />);
    const button = await clickCopy();
    expect(writeText).toHaveBeenCalledWith("make run\nmake test\n");
    expect(button.textContent).toBe("Copied");
  });

  it("says so when the browser refuses", async () => {
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText: vi.fn().mockRejectedValue(new Error("denied")) } });
    page.render(<MarkdownView text={ANSWER} />);
    const button = await clickCopy();
    expect(button.textContent).toContain("copy it by hand");
  });
});
