// The tool card words a result from its fields in the reader's language.

import { describe, expect, it } from "vitest";
import { setupI18n } from "../../i18n";
import { toolSummary } from "./toolSummary";

const search = { hits: [{ uri: "kb://me/a.md", offset: 0 }], scanned: 1, matched_files: 1, mode: "index", next_offset: null };
const ls = { items: [{ kind: "dir" }, { kind: "file" }, { kind: "file" }], next_offset: null, next_cursor: null };
const read = { offset: 0, total: 120, text: "abc", body: "raw" };
const coverage = { files: 4, summarized: 2, stale: 1, failed: 1, compiling: 0, never_compiled: 0 };
const status = { uri: "kb://me/", coverage, jobs: [{ id: 1 }, { id: 2 }] };

describe("toolSummary", () => {
  it("words search, ls and read in English", async () => {
    const i18n = setupI18n("en");
    await i18n.changeLanguage("en");
    const t = i18n.getFixedT("en", "agent");
    expect(toolSummary(t, "search", search)).toBe("1 hit in 1 file (index: 1 candidate read)");
    expect(toolSummary(t, "ls", ls)).toBe("3 items (1 folder, 2 files)");
    expect(toolSummary(t, "read", read)).toBe("characters 0–3 of 120");
    expect(toolSummary(t, "status", status)).toBe("2 jobs; 2 of 4 files summarized, 1 stale, 1 failed");
    expect(toolSummary(t, "status", { ...status, jobs: [] })).toBe("no jobs; 2 of 4 files summarized, 1 stale, 1 failed");
  });

  it("words them in Chinese", async () => {
    const i18n = setupI18n("zh-CN");
    await i18n.changeLanguage("zh-CN");
    const t = i18n.getFixedT("zh-CN", "agent");
    expect(toolSummary(t, "search", search)).toBe("1 个文件中共 1 条结果（索引：读取 1 个候选文件）");
    expect(toolSummary(t, "ls", ls)).toBe("3 项（1 个文件夹，2 个文件）");
    expect(toolSummary(t, "search", { ...search, mode: "ranked", scanned: 5, matched_files: 2 })).toBe("按词语：2 个匹配文件中最相关的 5 个，共 1 段");
    expect(toolSummary(t, "status", status)).toBe("2 个任务；4 个文件中已摘要 2 个，过时 1 个，失败 1 个");
    expect(toolSummary(t, "status", { ...status, jobs: [] })).toBe("没有任务；4 个文件中已摘要 2 个，过时 1 个，失败 1 个");
  });

  it("leaves what it does not know to the server's words", () => {
    const t = setupI18n("en").getFixedT("en", "agent");
    expect(toolSummary(t, "status", {})).toBeNull();
    expect(toolSummary(t, "search", { hits: "x" })).toBeNull();
  });
});
