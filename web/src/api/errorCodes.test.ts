import { describe, expect, it } from "vitest";
import { ApiError } from "./client";
import { canonicalCode, hasCode } from "./errorCodes";

describe("hasCode", () => {
  it("knows a code under its registered spelling and the one it replaced", () => {
    expect(hasCode(new ApiError(409, "already_exists", "taken"), "already_exists")).toBe(true);
    expect(hasCode(new ApiError(409, "exists", "taken"), "already_exists")).toBe(true);
    expect(hasCode(new ApiError(409, "name_taken", "taken"), "already_exists")).toBe(true);
    expect(hasCode(new ApiError(401, "missing_credentials", "sign in"), "missing_token")).toBe(true);
    expect(hasCode(new ApiError(409, "already_shared", "shared"), "already_exists")).toBe(false);
    expect(hasCode(new Error("exists"), "already_exists")).toBe(false);
  });

  it("leaves a code that was never renamed as it is", () => {
    expect(canonicalCode("invalid_uri")).toBe("invalid_uri");
    expect(canonicalCode("aborted")).toBe("aborted");
  });
});
