// The compile form in keep mode ("Keep compiled…"): it starts from the
// folder's saved choices, saves them with the quiet period through PUT
// /resources/auto-compile (no file list), and turns the setting off
// (fetch stubbed).

import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentOptions } from "../../api/agent";
import { TWO_MODELS } from "../../testing/fixtures";
import { mountEach, withClient } from "../../testing/mount";
import { KeepCompiledForm } from "./KeepCompiledForm";

const SCOPE = "kb://users/a/lib/";

const OPTIONS = {
  models: TWO_MODELS,
  cli_profiles: [],
  compile_defaults: { executor: "llm", model_id: "fake", call_budget: 5, timeout_s: 120 },
} as unknown as AgentOptions;

const SAVED = {
  uri: SCOPE, quiet_s: 45, executor: "llm", model_id: "other", cli_profile: "", model: "", reasoning_effort: "high",
  call_budget: 7, timeout_s: 300, output_parent: "", skill: "", pending: true, changed_at: null, due_at: null,
  created_at: "", updated_at: "",
};

interface Call {
  method: string;
  url: string;
  body?: unknown;
}

describe("KeepCompiledForm", () => {
  const page = mountEach();
  let calls: Call[];
  beforeEach(() => {
    calls = [];
  });
  afterEach(() => vi.unstubAllGlobals());

  const stub = (saved: typeof SAVED | null) =>
    vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? "GET";
      calls.push({ method, url: String(url), body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (String(url).includes("/resources/auto-compile")) {
        if (method === "GET") {
          return saved
            ? new Response(JSON.stringify(saved), { status: 200 })
            : new Response(JSON.stringify({ error: { code: "auto_compile_not_found", message: "not kept compiled" } }), { status: 404 });
        }
        if (method === "PUT") return new Response(JSON.stringify({ ...SAVED, ...(calls.at(-1)!.body as object) }), { status: 200 });
        if (method === "DELETE") return new Response(null, { status: 204 });
      }
      return new Response(JSON.stringify({ uri: SCOPE, items: [], next_offset: null, next_cursor: null }), { status: 200 });
    });

  const render = async (onClose: () => void) => {
    await page.renderAsync(withClient(<KeepCompiledForm scope={SCOPE} display={(u) => u} options={OPTIONS} onClose={onClose} />));
    await act(async () => new Promise((r) => setTimeout(r, 10)));
  };
  const button = (name: string) => [...page.host.querySelectorAll("button")].find((b) => b.textContent?.trim() === name);

  it("saves the choices and the quiet period on the folder, with no file list", async () => {
    stub(null);
    const onClose = vi.fn();
    await render(onClose);
    expect(page.host.querySelector('input[type="checkbox"]')).toBeNull();
    expect(button("Stop keeping compiled")).toBeUndefined();
    const quiet = [...page.host.querySelectorAll("label")].find((l) => l.textContent?.startsWith("Quiet period"))!.querySelector("input")!;
    expect(quiet.value).toBe("30");
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(quiet, "5");
      quiet.dispatchEvent(new Event("input", { bubbles: true }));
    });
    const submit = page.host.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    expect(submit.textContent).toBe("Keep compiled");
    await act(async () => submit.click());
    await act(async () => new Promise((r) => setTimeout(r, 10)));
    const put = calls.find((c) => c.method === "PUT")!;
    expect(put.url).toContain("/api/v1/resources/auto-compile");
    expect(put.body).toEqual({ uri: SCOPE, quiet_s: 5, executor: "llm", model_id: "fake", reasoning_effort: "medium", call_budget: 5, timeout_s: 120 });
    expect(onClose).toHaveBeenCalled();
  });

  it("starts from the saved choices and turns the setting off", async () => {
    stub(SAVED);
    const onClose = vi.fn();
    await render(onClose);
    expect(page.host.querySelector<HTMLSelectElement>('select[aria-label="Compile model"]')!.value).toBe("other");
    expect(page.host.querySelector('[data-testid="keep-status"]')!.textContent).toBe("Changes are waiting for their compile.");
    const quiet = [...page.host.querySelectorAll("label")].find((l) => l.textContent?.startsWith("Quiet period"))!.querySelector("input")!;
    expect(quiet.value).toBe("45");
    await act(async () => button("Stop keeping compiled")!.click());
    await act(async () => new Promise((r) => setTimeout(r, 10)));
    const del = calls.find((c) => c.method === "DELETE")!;
    expect(decodeURIComponent(del.url)).toContain(`/resources/auto-compile?uri=${SCOPE}`);
    expect(onClose).toHaveBeenCalled();
  });
});
