// The compile form opened before /options loaded picks up the defaults when
// they arrive (the compile command can run while the options are in flight);
// its skill picker offers Duplicate for a built-in and selects a skill saved
// from New… (fetch stubbed).

import { act } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AgentOptions } from "../../api/agent";
import { TWO_MODELS } from "../../testing/fixtures";
import { mountEach, testClient, withClient } from "../../testing/mount";
import { CompileDialog } from "./CompileDialog";

const SCOPE = "kb://users/a/notes/";

vi.mock("../../api/resources", () => ({
  listAtLeast: async () => ({
    uri: SCOPE,
    next_offset: null,
    items: [{ uri: `${SCOPE}plan.md`, name: "plan.md", kind: "file", size: 10, updated_at: "", generated: false }],
  }),
}));

const OPTIONS: AgentOptions = {
  models: TWO_MODELS,
  cli_profiles: [],
  compile_defaults: { executor: "llm", model_id: "other", call_budget: 5, timeout_s: 120 },
} as unknown as AgentOptions;

describe("CompileDialog", () => {
  const page = mountEach();
  const qc = testClient();
  afterEach(() => vi.unstubAllGlobals());

  const render = (options?: AgentOptions) =>
    page.renderAsync(withClient(<CompileDialog scope={SCOPE} display={(u) => u} options={options} onClose={() => {}} onTasks={() => {}} />, qc));

  it("uses the defaults that arrive after it opened, so Submit is enabled", async () => {
    await render(undefined);
    // Let the file listing resolve.
    await act(async () => {
      await new Promise((r) => setTimeout(r, 10));
    });
    // Every count label has its number, none picked included.
    expect(page.host.querySelector('button[type="submit"]')!.textContent).toBe("Compile 0 files");
    const checkbox = page.host.querySelector<HTMLInputElement>('input[type="checkbox"]')!;
    await act(async () => checkbox.click());
    const submit = page.host.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    expect(submit.disabled).toBe(true); // no model known yet

    await render(OPTIONS);
    const model = page.host.querySelector<HTMLSelectElement>('select[aria-label="Compile model"]')!;
    expect(model.value).toBe("other");
    expect(page.host.querySelector<HTMLInputElement>('input[type="number"]')!.value).toBe("5");
    expect(submit.disabled).toBe(false);
  });

  it("offers Duplicate for a built-in and selects a skill saved from New…", async () => {
    const withSkills = {
      ...OPTIONS,
      compile_defaults: {
        ...OPTIONS.compile_defaults,
        skill: "concise",
        skills: [{ id: "builtin:concise", name: "concise", description: "Short", builtin: true }],
      },
    } as AgentOptions;
    const posted: unknown[] = [];
    vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body));
      posted.push(body);
      return new Response(JSON.stringify({ id: "s_9", ...body, builtin: false, updated_at: "" }), { status: 201 });
    });
    await render(withSkills);
    const button = (name: string) => [...document.querySelectorAll("button")].find((b) => b.textContent?.trim() === name)!;
    const picker = page.host.querySelector<HTMLSelectElement>("#compile-skill")!;
    expect(picker.value).toBe("builtin:concise");
    expect(button("Edit…").disabled).toBe(true);
    expect(button("Duplicate…")).toBeDefined();

    await act(async () => button("New…").click());
    const dialogs = document.querySelectorAll("dialog[open]");
    expect(dialogs.length).toBe(2); // on top of the form, which keeps its choices
    const top = dialogs[1]!;
    const set = (sel: string, value: string) => {
      const el = top.querySelector<HTMLInputElement | HTMLTextAreaElement>(sel)!;
      const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
      Object.getOwnPropertyDescriptor(proto, "value")!.set!.call(el, value);
      el.dispatchEvent(new Event("input", { bubbles: true }));
    };
    await act(async () => {
      set("input", "Deadlines");
      set("textarea", "List every deadline.");
    });
    await act(async () => button("Save").click());
    await act(async () => new Promise((r) => setTimeout(r, 0)));
    expect(posted).toEqual([{ name: "Deadlines", description: "", prompt: "List every deadline.", output_language: null }]);
    expect(document.querySelectorAll("dialog[open]").length).toBe(1);
    expect(picker.value).toBe("s_9");
    expect(picker.selectedOptions[0]!.textContent).toBe("Deadlines");
    expect(button("Edit…").disabled).toBe(false);
  });
});
