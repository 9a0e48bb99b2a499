import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import { charCount, copyName, countText, defaultSkillID, localErrors, serverErrors } from "./model";

const BUILTINS = [
  { id: "builtin:concise", name: "concise", description: "", builtin: true },
  { id: "builtin:study-notes", name: "study-notes", description: "", builtin: true },
  { id: "s_3", name: "Contract reader", description: "", builtin: false },
];

describe("skill form rules", () => {
  it("counts code points, as the server does", () => {
    expect(charCount("a😀中")).toBe(3);
    expect(countText(8001)).toBe("8,001 / 8,000 characters");
  });

  it("names the field that breaks a limit", () => {
    expect(localErrors({ name: " ", description: "", prompt: "x", output_language: null })).toEqual({ name: "Give the skill a name." });
    const long = localErrors({ name: "n".repeat(65), description: "d".repeat(501), prompt: "😀".repeat(8001), output_language: null });
    expect(Object.keys(long).sort()).toEqual(["description", "name", "prompt"]);
    expect(long.prompt).toBe("The prompt is 8,001 characters; at most 8,000.");
    expect(localErrors({ name: "n".repeat(64), description: "", prompt: "😀".repeat(8000), output_language: null })).toEqual({});
  });

  it("puts the server's invalid_skill and already_exists (once exists) errors on their fields", () => {
    expect(serverErrors(new ApiError(400, "invalid_skill", "prompt is too long", { field: "prompt" }))).toEqual({ prompt: "prompt is too long" });
    expect(serverErrors(new ApiError(400, "invalid_skill", "bad name", { details: { field: "name" } }))).toEqual({ name: "bad name" });
    expect(serverErrors(new ApiError(409, "already_exists", "a skill named X exists"))).toEqual({ name: "a skill named X exists" });
    expect(serverErrors(new ApiError(409, "exists", "a skill named X exists"))).toEqual({ name: "a skill named X exists" });
    expect(serverErrors(new ApiError(400, "invalid_skill", "odd", { field: "colour" }))).toBeNull();
    expect(serverErrors(new ApiError(500, "internal", "boom"))).toBeNull();
  });

  it("gives a duplicate a free name within the limit", () => {
    expect(copyName("concise", ["concise"])).toBe("concise (copy)");
    expect(copyName("concise", ["concise", "Concise (copy)"])).toBe("concise (copy 2)");
    expect(copyName("x".repeat(64), []).length).toBeLessThanOrEqual(64);
  });

  it("resolves the default skill by id or by a built-in's bare name", () => {
    expect(defaultSkillID(BUILTINS, "study-notes")).toBe("builtin:study-notes");
    expect(defaultSkillID(BUILTINS, "s_3")).toBe("s_3");
    expect(defaultSkillID(BUILTINS, "gone")).toBe("builtin:concise");
    expect(defaultSkillID([], "concise")).toBe("");
  });
});
