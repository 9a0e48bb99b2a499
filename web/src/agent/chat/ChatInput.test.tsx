// While an answer streams, Escape in the question box stops it, and Stop
// leaves the keyboard in the box for the next question.

import { act } from "react";
import { describe, expect, it, vi } from "vitest";
import { mountEach } from "../../testing/mount";
import { ChatInput } from "./ChatInput";

describe("ChatInput while streaming", () => {
  const page = mountEach();

  const show = (onStop: () => void) =>
    page.render(
      <ChatInput
        prefix="kb://me/"
        prefixTitle="Home"
        draftKey="chat-input-test"
        streaming
        onSubmit={() => true}
        onStop={onStop}
        onPrefix={() => {}}
        onCommand={() => {}}
      />,
    );

  it("stops on Escape", () => {
    const onStop = vi.fn();
    show(onStop);
    const area = page.host.querySelector("textarea")!;
    act(() => {
      area.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    });
    expect(onStop).toHaveBeenCalledTimes(1);
  });

  it("keeps focus in the box after Stop", () => {
    const onStop = vi.fn();
    show(onStop);
    const stop = page.host.querySelector<HTMLButtonElement>(".input-actions button")!;
    stop.focus();
    act(() => stop.click());
    expect(onStop).toHaveBeenCalledTimes(1);
    expect(document.activeElement).toBe(page.host.querySelector("textarea"));
  });
});
