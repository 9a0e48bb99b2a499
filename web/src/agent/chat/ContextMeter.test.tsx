// The meter shows provider usage only for the turn its estimate came from, and
// only once that turn completed.

import { act } from "react";
import { describe, expect, it } from "vitest";
import { mountEach } from "../../testing/mount";
import type { DoneEvent } from "../../sse/events";
import { CONTEXT } from "../../testing/fixtures";
import { ContextMeter } from "./ContextMeter";
import { appendTurn, applyEvent, finishTurn, lastContext, newConversation, newTurn } from "./conversation";
import type { Conversation } from "./conversation";

const DONE: DoneEvent = {
  finish_reason: "stop",
  steps: 1,
  tool_calls: 0,
  model_calls: 1,
  estimate: 10,
  usage: { input_tokens: 4321, output_tokens: 7 },
};

function turnWithContext(c: Conversation, id: string, estimate: number): Conversation {
  c = appendTurn(c, newTurn({ userId: `u-${id}`, id }, "q", c.scope, "fake"));
  return applyEvent(c, id, { type: "context", data: { ...CONTEXT, estimate } });
}

describe("ContextMeter", () => {
  const page = mountEach();

  const show = (c: Conversation) => {
    const ctx = lastContext(c)!;
    page.render(<ContextMeter context={ctx.context} turn={ctx.turn} />);
    act(() => page.host.querySelector<HTMLButtonElement>(".context-summary")!.click());
    return page.host.textContent ?? "";
  };

  it("shows the usage of the completed turn the estimate came from", () => {
    let c = turnWithContext(newConversation("c", "kb://x/"), "t1", 100);
    c = finishTurn(c, "t1", { kind: "done", done: DONE });
    const text = show(c);
    expect(page.host.querySelector(".context-usage")?.textContent).toMatch(/provider 4\.3k tokens/);
    expect(text).toMatch(/4,321 input · 7 output tokens/);
  });

  it("does not pair a stopped turn's estimate with an earlier turn's usage", () => {
    let c = turnWithContext(newConversation("c", "kb://x/"), "t1", 100);
    c = finishTurn(c, "t1", { kind: "done", done: DONE });
    c = turnWithContext(c, "t2", 200);
    c = finishTurn(c, "t2", { kind: "stopped" });
    const text = show(c);
    expect(text).toMatch(/≈200 /);
    expect(page.host.querySelector(".context-usage")).toBeNull();
    expect(text).not.toMatch(/4,321/);
    expect(text).toMatch(/the turn was stopped/);
  });

  it("speaks one unit: tokens, every estimate marked ≈, the byte basis in the detail", () => {
    let c = turnWithContext(newConversation("c", "kb://x/"), "t1", 100);
    c = finishTurn(c, "t1", { kind: "done", done: DONE });
    show(c);
    const summary = page.host.querySelector(".context-nums")!.textContent ?? "";
    expect(summary).toMatch(/^≈100 \/ 1.0k tokens est\./);
    expect(summary).not.toMatch(/\bB\b|bytes/);
    const detail = page.host.querySelector(".context-detail")!;
    const dd = (label: string) => {
      const dt = [...detail.querySelectorAll("dt")].find((d) => d.textContent === label)!;
      return dt.nextElementSibling!.textContent ?? "";
    };
    expect(dd("Estimate")).toMatch(/^≈100 tokens \(basis: UTF-8 bytes of the input.*upper bound/);
    expect(dd("Input limit")).toMatch(/^1,000 tokens/);
    expect(dd("Window")).toBe("2,048 tokens");
    expect(dd("Breakdown")).toMatch(/system ≈10 · tools ≈20 · history ≈30 · observations ≈40 tokens/);
    expect(dd("Provider usage")).toMatch(/4,321 input · 7 output tokens \(counted by the provider/);
  });

  it("shows no usage while the turn is still running", () => {
    let c = turnWithContext(newConversation("c", "kb://x/"), "t1", 100);
    c = finishTurn(c, "t1", { kind: "done", done: DONE });
    c = turnWithContext(c, "t2", 300);
    const text = show(c);
    expect(page.host.querySelector(".context-usage")).toBeNull();
    expect(text).toMatch(/still running/);
  });
});
