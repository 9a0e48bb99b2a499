import { describe, expect, it } from "vitest";
import { draftOf, inputOf } from "./modelDraft";
import type { AdminModel } from "./modelApi";

const stored: AdminModel = {
  id: "team",
  name: "Team",
  kind: "chat",
  dimensions: 0,
  batch_size: 0,
  in_use: false,
  profile: "openai-compatible",
  base_url: "http://llm.local/v1",
  model: "up",
  context_window: 32768,
  output_reserve: 2048,
  max_output: 0,
  native_tools: false,
  reasoning: true,
  price_input: 0.5,
  price_output: 0,
  disabled: false,
  api_key: { set: true, last4: "wxyz" },
  users: [],
  groups: [3],
  source: "admin",
  read_only: false,
  shadowed: false,
};

describe("the model form's draft", () => {
  it("keeps a stored key unless a new one is typed or removal is asked", () => {
    const d = draftOf(stored);
    expect(d.api_key).toBe("");
    expect("api_key" in inputOf(d)).toBe(false);
    expect(inputOf({ ...d, api_key: "sk-new" }).api_key).toBe("sk-new");
    expect(inputOf({ ...d, remove_key: true }).api_key).toBe("");
  });

  it("sends the access lists only when restricted, and numbers as numbers", () => {
    const d = draftOf(stored);
    expect(d.restricted).toBe(true);
    const input = inputOf({ ...d, price_output: "1.25", max_output: "" });
    expect(input).toMatchObject({ groups: [3], users: [], price_input: 0.5, price_output: 1.25, max_output: 0, reasoning: true });
    expect(inputOf({ ...d, restricted: false }).groups).toEqual([]);
  });

  it("starts a new model open to everyone with tools on", () => {
    const d = draftOf(null);
    expect(d).toMatchObject({ id: "", restricted: false, native_tools: true, profile: "openai-compatible" });
  });
});

describe("an embedding model's draft", () => {
  it("sends only what an embedding model has", () => {
    const d = { ...draftOf(null), kind: "embedding" as const, id: " team-embed ", base_url: "http://e.local/v1", dimensions: "256", batch_size: "", price_input: "0.02", api_key: "sk-new" };
    expect(inputOf(d)).toEqual({
      id: "team-embed", kind: "embedding", name: "", base_url: "http://e.local/v1", model: "", dimensions: 256, batch_size: 0, price_input: 0.02, api_key: "sk-new",
    });
  });

  it("keeps a stored model's kind and sizes", () => {
    const d = draftOf({ ...stored, kind: "embedding", dimensions: 512, batch_size: 8 });
    expect([d.kind, d.dimensions, d.batch_size]).toEqual(["embedding", "512", "8"]);
    expect(inputOf(d).api_key).toBeUndefined();
  });
});
