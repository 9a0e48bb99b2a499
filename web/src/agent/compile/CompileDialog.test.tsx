// The compile form opened before /options loaded picks up the defaults when
// they arrive (the compile command can run while the options are in flight);
// its skill picker offers Duplicate for a built-in and selects a skill saved
// from New… (fetch stubbed).

import { act } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AgentOptions } from "../../api/agent";
import { TWO_MODELS } from "../../testing/fixtures";
import { mountEach, testClient, withClient } from "../../testing/mount";
import { CompileDialog, startOf } from "./CompileDialog";
import { followJobs } from "./CompileResult";
import type { Job } from "../../api/agent";

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

  it("opens on the tree's selection: its files ticked in their folders, a folder's files all", async () => {
    expect(startOf(SCOPE, [`${SCOPE}plan.md`, "kb://users/a/other/", "kb://users/a/other/x.md"])).toEqual({
      groups: [SCOPE, "kb://users/a/other/"],
      picked: new Set([`${SCOPE}plan.md`, "kb://users/a/other/x.md"]),
      whole: new Set(["kb://users/a/other/"]),
    });
    expect(startOf(SCOPE)).toEqual({ groups: [SCOPE], picked: new Set(), whole: new Set() });
    await page.renderAsync(
      withClient(<CompileDialog scope="kb://users/a/" selection={[`${SCOPE}plan.md`]} display={(u) => u} options={OPTIONS} onClose={() => {}} onTasks={() => {}} />, qc),
    );
    await act(async () => {
      await new Promise((r) => setTimeout(r, 10));
    });
    expect(page.host.querySelector<HTMLInputElement>('input[type="checkbox"]')!.checked).toBe(true);
    expect(page.host.querySelector('button[type="submit"]')!.textContent).toBe("Compile 1 file");
    // Focus starts on the first control, the file's box.
    expect(document.activeElement).toBe(page.host.querySelector('input[type="checkbox"]'));
    // Everything but the model and the skill is under a closed Advanced.
    expect(page.host.querySelector<HTMLDetailsElement>("details.compile-advanced")!.open).toBe(false);
    expect(page.host.querySelector("details.compile-advanced")!.textContent).toContain("Executor");
  });

  it("follows each submitted job by the jobs list, keeping the answer's state for one it does not hold", () => {
    const job = (id: number, state: string) => ({ id, state, uri: `${SCOPE}${id}.md` }) as Job;
    expect(followJobs([job(1, "queued"), job(2, "queued")], [job(2, "succeeded"), job(3, "running")]).map((j) => j.state)).toEqual(["queued", "succeeded"]);
    expect(followJobs([job(1, "queued")], undefined).map((j) => j.state)).toEqual(["queued"]);
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
