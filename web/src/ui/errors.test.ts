import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import i18n from "../i18n";
import { messageOf } from "./errors";

describe("messageOf", () => {
  afterEach(() => void i18n.changeLanguage("en"));

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

  it("interpolates what it takes from the server's message", async () => {
    await i18n.changeLanguage("zh-CN");
    const wait = new ApiError(429, "too_many_attempts", "too many failed logins from this address; try again in 42 seconds");
    expect(messageOf(wait)).toBe("此地址登录失败次数过多，请 42 秒后再试。");
    const big = new ApiError(413, "file_too_large", "a.pdf is larger than the upload limit of 10485760 bytes");
    expect(messageOf(big)).toBe("a.pdf 超过了上传上限 10 MB。");
  });

  it("shows the server's message for a variant it cannot fill in", () => {
    const err = new ApiError(404, "not_found", "skill x does not exist");
    expect(messageOf(err)).toBe("skill x does not exist");
    const uri = new ApiError(404, "not_found", "no such resource: kb://alice/a.md");
    expect(messageOf(uri)).toBe("kb://alice/a.md does not exist (it may have been moved or deleted).");
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
