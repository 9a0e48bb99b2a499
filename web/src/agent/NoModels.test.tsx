// The no-model panel names each way to add a model once.

import { describe, expect, it } from "vitest";
import { mountEach } from "../testing/mount";
import { NoModels } from "./NoModels";

describe("NoModels", () => {
  const page = mountEach();
  it("lists the config file's model fields once", () => {
    page.render(<NoModels onFolder={() => {}} />);
    const text = page.host.textContent ?? "";
    expect(text.split("context_window").length - 1).toBe(1);
    expect(text).toContain("OPENAI_API_KEY");
    expect(text).toContain("KB_CONFIG");
  });
});
