// The example questions read as Chinese sentences: no spaces around 我的文件.

import { describe, expect, it } from "vitest";
import { setupI18n } from "../../i18n";
import { exampleQuestions } from "./Welcome";

describe("exampleQuestions", () => {
  it("puts no space between Chinese words in the home folder", async () => {
    await setupI18n("zh-CN").changeLanguage("zh-CN");
    const qs = exampleQuestions("主目录", "");
    expect(qs[1]).toBe("总结我的文件中文档的要点。");
    for (const q of qs) expect(q).not.toMatch(/[\u4e00-\u9fff] [\u4e00-\u9fff]/);
  });

  it("names a folder with spaces around its Latin name", async () => {
    await setupI18n("zh-CN").changeLanguage("zh-CN");
    expect(exampleQuestions("notes/", "notes")[1]).toBe("总结 notes 中文档的要点。");
  });
});
