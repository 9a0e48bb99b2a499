// The administrator's job table in Chinese: a failed job says why by its
// code, and its file is named by its owner and path, not a kb:// address.

import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import i18n from "../i18n";
import { mountEach, withClient } from "../testing/mount";
import { AdminJobsSection } from "./AdminJobsSection";

const job = {
  id: 7,
  kind: "compile",
  uri: "kb://users/alice/notes/blob.bin",
  username: "alice",
  user_id: 2,
  state: "failed",
  stage: "parse",
  progress: 0,
  attempts: 1,
  max_attempts: 3,
  error: { code: "unsupported_format", message: "blob.bin is a binary file of an unknown type" },
  configuration: {},
  created_at: "2026-12-06T08:00:00Z",
  updated_at: "2026-12-06T08:01:00Z",
};

describe("AdminJobsSection", () => {
  const page = mountEach();
  beforeEach(async () => {
    await i18n.changeLanguage("zh-CN");
    vi.stubGlobal("fetch", async (url: string) => {
      const body = String(url).includes("/admin/jobs") ? { items: [job] } : { items: [] };
      return new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
    });
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await i18n.changeLanguage("en");
  });

  it("says why a job failed in the reader's words and names its file by owner and path", async () => {
    await page.renderAsync(withClient(<AdminJobsSection />));
    const row = () => document.querySelector('[data-job="7"]');
    for (let i = 0; i < 100 && !row(); i++) await act(async () => new Promise((r) => setTimeout(r, 10)));
    const text = row()?.textContent ?? "";
    expect(text).toContain("无法读取这种类型的文件。");
    expect(text).toContain("alice/notes/blob.bin");
    expect(text).not.toContain("kb://");
    expect(text).not.toContain("binary file");
  });
});
