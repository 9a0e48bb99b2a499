import { afterEach, describe, expect, it } from "vitest";
import i18n from "../../i18n";
import { errorText } from "../../ui/errors";
import { attemptText } from "./jobText";

describe("a job row's words", () => {
  afterEach(() => void i18n.changeLanguage("en"));

  it("counts attempts only once a job has run again, in words", async () => {
    expect(attemptText({ attempts: 0, max_attempts: 3 })).toBeNull();
    expect(attemptText({ attempts: 1, max_attempts: 3 })).toBeNull();
    expect(attemptText({ attempts: 2, max_attempts: 3 })).toBe("try 2 of 3");
    await i18n.changeLanguage("zh-CN");
    expect(attemptText({ attempts: 3, max_attempts: 3 })).toBe("第 3 次尝试（共 3 次）");
  });

  it("says why a job failed by its code, without the code", async () => {
    const err = { code: "unsupported_format", message: "blob.bin is a binary file of an unknown type" };
    expect(errorText(err)).toBe("The file is of a type that cannot be read.");
    await i18n.changeLanguage("zh-CN");
    expect(errorText(err)).toBe("无法读取这种类型的文件。");
    expect(errorText({ code: "llm_timeout", message: "deadline" })).toBe("模型响应超时。");
  });

  it("keeps the server's words for a code it does not know", () => {
    expect(errorText({ code: "brand_new", message: "something new" })).toBe("something new");
  });
});
