// The skill form against a stubbed fetch: the live count, the local limit
// check that sends nothing, a server field error shown on its field, a save,
// and the prompt preview for the selected file.

import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mountEach, withClient } from "../testing/mount";
import type { Skill } from "../api/skills";
import { SkillDialog } from "./SkillDialog";

interface Sent {
  method: string;
  url: string;
  body: unknown;
}
let sent: Sent[] = [];
let answer: (req: Sent) => { status: number; body: unknown };

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

const flush = () => act(async () => new Promise((r) => setTimeout(r, 0)));

function type(el: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, "value")!.set!.call(el, value);
  el.dispatchEvent(new Event("input", { bubbles: true }));
}

describe("SkillDialog", () => {
  const page = mountEach();
  let saved: Skill[];
  beforeEach(() => {
    sent = [];
    saved = [];
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      const req = { method: init.method ?? "GET", url, body: init.body ? JSON.parse(String(init.body)) : undefined };
      sent.push(req);
      const { status, body } = answer(req);
      return json(status, body);
    });
    page.render(
      withClient(
        <SkillDialog
          title="New skill"
          initial={{ name: "", description: "", prompt: "", output_language: null }}
          previewURI="kb://users/a/notes/plan.md"
          previewName="plan.md"
          onSaved={(s) => saved.push(s)}
          onClose={() => {}}
        />,
      ),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const control = <T extends HTMLElement>(label: string) => {
    const l = [...page.host.querySelectorAll("label")].find((x) => x.textContent === label)!;
    return document.getElementById(l.htmlFor) as T;
  };
  const button = (name: string) => [...page.host.querySelectorAll("button")].find((b) => b.textContent?.trim() === name)!;
  const count = () => page.host.querySelector('[data-testid="prompt-count"]')!;

  it("counts the prompt as it is typed and refuses an over-long one without a request", async () => {
    await act(async () => type(control<HTMLTextAreaElement>("Prompt"), "Summarize 😀"));
    expect(count().textContent).toBe("11 / 8,000 characters");
    await act(async () => {
      type(control<HTMLInputElement>("Name"), "Long");
      type(control<HTMLTextAreaElement>("Prompt"), "x".repeat(8001));
    });
    expect(count().classList.contains("error")).toBe(true);
    await act(async () => button("Save").click());
    const prompt = control<HTMLTextAreaElement>("Prompt");
    expect(prompt.getAttribute("aria-invalid")).toBe("true");
    const describedBy = prompt.getAttribute("aria-describedby")!.split(" ");
    const message = describedBy.map((id) => document.getElementById(id)?.textContent).join(" | ");
    expect(message).toMatch(/The prompt is 8,001 characters; at most 8,000\./);
    expect(sent).toEqual([]);
  });

  it("shows the server's invalid_skill error on its field, then saves", async () => {
    answer = () => ({ status: 400, body: { error: { code: "invalid_skill", message: "name must not contain control characters", field: "name" } } });
    await act(async () => {
      type(control<HTMLInputElement>("Name"), "Contract reader");
      type(control<HTMLTextAreaElement>("Prompt"), "List the parties and deadlines.");
    });
    await act(async () => button("Save").click());
    await flush();
    const name = control<HTMLInputElement>("Name");
    expect(name.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(name.getAttribute("aria-describedby")!)!.textContent).toBe("name must not contain control characters");
    expect(page.host.querySelector('[role="alert"]')).toBeNull();
    expect(saved).toEqual([]);

    const skill = { id: "s_1", name: "Contract reader", description: "", prompt: "List the parties and deadlines.", output_language: null, builtin: false, updated_at: "" };
    answer = () => ({ status: 201, body: skill });
    await act(async () => type(control<HTMLInputElement>("Name"), " Contract reader "));
    expect(name.getAttribute("aria-invalid")).toBeNull(); // editing clears the old message
    await act(async () => button("Save").click());
    await flush();
    expect(sent.at(-1)).toEqual({
      method: "POST",
      url: "/api/v1/knowledge-agent/skills",
      body: { name: "Contract reader", description: "", prompt: "List the parties and deadlines.", output_language: null },
    });
    expect(saved).toEqual([skill]);
  });

  it("previews the full prompt for the selected file", async () => {
    answer = (req) => ({ status: 200, body: { system: "You summarize files.", user: `${(req.body as { prompt: string }).prompt}\n\n# Plan` } });
    expect(button("Preview prompt").disabled).toBe(true); // nothing to preview yet
    await act(async () => type(control<HTMLTextAreaElement>("Prompt"), "Only the deadlines."));
    await act(async () => button("Preview prompt").click());
    await flush();
    expect(sent).toEqual([
      { method: "POST", url: "/api/v1/knowledge-agent/skills/preview", body: { prompt: "Only the deadlines.", output_language: null, uri: "kb://users/a/notes/plan.md" } },
    ]);
    const parts = [...page.host.querySelectorAll('[data-testid="prompt-preview"] pre')].map((p) => p.textContent);
    expect(parts).toEqual(["You summarize files.", "Only the deadlines.\n\n# Plan"]);
  });
});
