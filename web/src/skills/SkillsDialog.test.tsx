// The skills list in Chinese: a built-in skill is named in the reader's
// language everywhere, its buttons' accessible names included.

import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import i18n from "../i18n";
import { mountEach, withClient } from "../testing/mount";
import { SkillsDialog } from "./SkillsDialog";

const concise = { id: "builtin:concise", name: "concise", builtin: true, title: "Concise summary", description: "A paragraph, then key points.", prompt: "", output_language: null };

describe("SkillsDialog", () => {
  const page = mountEach();
  beforeEach(async () => {
    await i18n.changeLanguage("zh-CN");
    vi.stubGlobal("fetch", async () => new Response(JSON.stringify({ items: [concise] }), { status: 200, headers: { "Content-Type": "application/json" } }));
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await i18n.changeLanguage("en");
  });

  it("names a built-in skill in the reader's language on its buttons too", async () => {
    await page.renderAsync(withClient(<SkillsDialog ctx={{ models: [], takenNames: [] }} onSaved={() => {}} onDeleted={() => {}} onClose={() => {}} />));
    const find = () => document.querySelector('[data-skill-id="builtin:concise"]');
    for (let i = 0; i < 100 && !find(); i++) await act(async () => new Promise((r) => setTimeout(r, 10)));
    const item = find();
    expect(item?.querySelector("strong")?.textContent).toBe("简明摘要");
    const labels = [...(item?.querySelectorAll("button") ?? [])].map((b) => b.getAttribute("aria-label"));
    expect(labels).toEqual(["复制“简明摘要”"]);
  });
});
