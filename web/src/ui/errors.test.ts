import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import i18n from "../i18n";
import { messageOf, setErrorReader } from "./errors";

// The codes the server can answer, as the OpenAPI document lists them (the
// generated schema is checked against the server's registry by check:api).
function serverCodes(): string[] {
  const schema = readFileSync(path.resolve(__dirname, "../api/schema.d.ts"), "utf8");
  const union = /\bcode: ((?:"[a-z0-9_]+"(?: \| )?){20,});/.exec(schema)?.[1] ?? "";
  return [...union.matchAll(/"([a-z0-9_]+)"/g)].map((m) => m[1] ?? "");
}

describe("messageOf", () => {
  afterEach(async () => {
    setErrorReader(null);
    await i18n.changeLanguage("en");
  });

  it("has words in every language for every code the server can answer", () => {
    const codes = serverCodes();
    expect(codes.length).toBeGreaterThan(150);
    for (const lng of ["en", "zh-CN"]) {
      const missing = codes.filter((c) => !i18n.exists(`errors:${c}`, { lng, fallbackLng: false }));
      expect(missing, `codes without words in ${lng}`).toEqual([]);
    }
  });

  it("translates a code the errors namespace knows", async () => {
    const err = new ApiError(401, "invalid_credentials", "wrong username or password");
    expect(messageOf(err)).toBe("Wrong username or password.");
    await i18n.changeLanguage("zh-CN");
    expect(messageOf(err)).toBe("用户名或密码错误。");
  });

  it("translates the codes a screen shows when a file, share, skill or job action is refused", async () => {
    await i18n.changeLanguage("zh-CN");
    expect(messageOf(new ApiError(403, "builtin_skill", "builtin skills are read-only"))).toBe("内置技能为只读；请复制后再修改。");
    expect(messageOf(new ApiError(409, "active_job_conflict", "file has an active job"))).toBe("该文件已有进行中的任务，请先取消它。");
    expect(messageOf(new ApiError(400, "invalid_name", "name contains a slash"))).toBe("名称不可用：为空、过长，或含有斜杠或控制字符。");
  });

  it("fills in the values of the error's fields, never its English message", async () => {
    await i18n.changeLanguage("zh-CN");
    const pages = new ApiError(400, "page_out_of_range", "page 20 of a 17-page document", { pages: 17 });
    expect(messageOf(pages)).toBe("该文档只有 17 页。");
    const wait = new ApiError(429, "too_many_attempts", "too many failed logins", { retry_after_s: 42 });
    expect(messageOf(wait)).toBe("此地址登录失败次数过多，请 42 秒后再试。");
    const big = new ApiError(413, "file_too_large", "a.pdf is larger", { file: "a.pdf", limit_bytes: 10485760 });
    expect(messageOf(big)).toBe("“a.pdf”超过了上传上限 10 MB。");
    const weak = new ApiError(400, "weak_password", "password must have at least 8 characters", { min: 8 });
    expect(messageOf(weak)).toBe("密码至少需要 8 个字符。");
  });

  it("names a place in the reader's words, not by its kb:// address", async () => {
    setErrorReader("alice");
    const mine = new ApiError(404, "not_found", "no such resource", { uri: "kb://users/alice/notes/a.md" });
    expect(messageOf(mine)).toBe("notes/a.md does not exist (it may have been moved or deleted).");
    const theirs = new ApiError(403, "read_only", "shared read-only", { uri: "kb://users/bob/plans/" });
    expect(messageOf(theirs)).toBe("bob/plans/ is shared with you read-only; ask its owner for write access.");
    await i18n.changeLanguage("zh-CN");
    const root = new ApiError(400, "not_a_file", "is a folder", { uri: "kb://users/alice/" });
    expect(messageOf(root)).toBe("“主目录”是文件夹，不是文件。");
  });

  it("shows the code's words without values when the server sent no field for them", () => {
    const err = new ApiError(404, "not_found", "skill x does not exist");
    expect(messageOf(err)).toBe("It does not exist (it may have been moved or deleted).");
  });

  it("translates a code a previous release spelled otherwise", async () => {
    await i18n.changeLanguage("zh-CN");
    const now = new ApiError(503, "unavailable", "the server cannot reach its database for now; try again shortly");
    const before = new ApiError(503, "database_unavailable", "the database is not reachable");
    expect(messageOf(now)).toBe("数据库无法访问，请稍后再试。");
    expect(messageOf(before)).toBe(messageOf(now));
  });

  it("shows the server's message for an unknown code, and a generic one for anything else", async () => {
    expect(messageOf(new ApiError(400, "invalid_frob", "frob must be blue"))).toBe("frob must be blue");
    expect(messageOf(new Error("boom"))).toBe("boom");
    await i18n.changeLanguage("zh-CN");
    expect(messageOf(42)).toBe("出错了。");
  });
});
