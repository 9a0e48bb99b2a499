import { afterEach, describe, expect, it } from "vitest";
import i18n from "./index";
import { countLabel, firstPage } from "../search/model";
import { fileBadge } from "../tree/badges";

// Counts pick _one/_other in English and _other in Chinese (one plural form);
// model code that builds labels outside React follows the language of the moment.
describe("plurals and labels built outside React", () => {
  afterEach(() => void i18n.changeLanguage("en"));

  it("English has one and other, Chinese only other", async () => {
    expect(i18n.t("agent:status.toolCalls", { count: 1 })).toBe("1 tool call");
    expect(i18n.t("agent:status.toolCalls", { count: 3 })).toBe("3 tool calls");
    await i18n.changeLanguage("zh-CN");
    expect(i18n.t("agent:status.toolCalls", { count: 1 })).toBe("1 次工具调用");
    expect(i18n.t("agent:status.toolCalls", { count: 3 })).toBe("3 次工具调用");
  });

  it("search counts and tree badges switch with the language", async () => {
    const hit = (uri: string) => ({ uri, offset: 0, snippet: "x" });
    const results = firstPage({ uri: "kb://users/a/", q: "x", mode: "literal" }, {
      names: [],
      names_complete: true,
      items: [hit("kb://users/a/a.md"), hit("kb://users/a/b.md")],
      scanned: 2,
      complete: true,
      next_cursor: null,
    } as unknown as Parameters<typeof firstPage>[1]);
    expect(countLabel(results)).toBe("2 hits in 2 files");
    const node = { kind: "file" as const, job: { id: 7, state: "queued" as const }, summary: undefined };
    expect(fileBadge(node)?.label).toBe("queued");
    await i18n.changeLanguage("zh-CN");
    expect(countLabel(results)).toBe("2 个文件中共 2 条结果");
    expect(fileBadge(node)?.title).toBe("编译任务 #7 正在等待运行。");
  });
});
