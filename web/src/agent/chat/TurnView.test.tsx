// A failed answer says why in the reader's words, by its code, and shows no
// code of the API.

import { afterEach, describe, expect, it } from "vitest";
import i18n from "../../i18n";
import type { Turn } from "./conversation";
import { statusLine } from "./TurnView";

const failed = (code: string): Turn => ({
  userId: "u1",
  id: "a1",
  question: "q",
  scope: "kb://users/a/",
  modelId: "fake",
  status: "error",
  parts: [],
  tools: {},
  error: { code, message: "upstream stream ended without [DONE]" },
});

describe("statusLine", () => {
  afterEach(() => void i18n.changeLanguage("en"));

  it("says why an answer failed in words, without the code", async () => {
    const tr = i18n.getFixedT("en", "agent");
    expect(statusLine(tr, failed("llm_incomplete_stream")).text).toBe("Failed — The model provider's answer ended before it was finished.");
    await i18n.changeLanguage("zh-CN");
    expect(statusLine(i18n.getFixedT("zh-CN", "agent"), failed("llm_incomplete_stream")).text).toBe("失败——模型服务商的回答没有完成就中断了。");
  });

  it("has words for the codes only an answer fails with", async () => {
    await i18n.changeLanguage("zh-CN");
    const tr = i18n.getFixedT("zh-CN", "agent");
    for (const code of ["compaction_failed", "content_filtered", "context_overflow", "limit_model_calls", "limit_steps", "limit_tool_calls", "answer_not_saved", "server_shutdown", "interrupted"]) {
      expect(statusLine(tr, failed(code)).text, code).not.toMatch(/[A-Za-z]{3,}/);
    }
  });
});
