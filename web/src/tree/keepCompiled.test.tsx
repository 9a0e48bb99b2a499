// The tree marks a folder kept compiled with an icon and a word, not a
// colour alone, and offers "Keep compiled…" only on folders of one's own.

import { describe, expect, it } from "vitest";
import type { ResourceNode } from "../api/types";
import { mountEach } from "../testing/mount";
import { canKeepCompiled } from "./KeepCompiledDialog";
import { TreeRowView } from "./TreeRowView";

const ROOT = "kb://users/a/";

describe("kept compiled", () => {
  const page = mountEach();
  it("marks the folder row with an icon and text", () => {
    const node = (auto: boolean): ResourceNode => ({ uri: `${ROOT}lib/`, name: "lib", kind: "dir", size: 0, updated_at: "", generated: false, auto_compile: auto });
    for (const auto of [true, false]) {
      page.render(
        <TreeRowView
          row={{ type: "node", node: node(auto), depth: 0, expanded: false } as never}
          selected={false}
          dropTarget={false}
          onActivate={() => {}}
          onLoadMore={() => {}}
          onOpen={() => {}}
        />,
      );
      const mark = page.host.querySelector('[data-badge="kept-compiled"]');
      if (!auto) {
        expect(mark).toBeNull();
        continue;
      }
      expect(mark!.textContent!.trim()).toBe("kept compiled");
      expect(mark!.querySelector("svg")).not.toBeNull();
      expect(mark!.getAttribute("title")).toContain("kept compiled");
    }
  });

  it("is offered on folders of one's own tree outside wiki/", () => {
    expect(canKeepCompiled(`${ROOT}lib/`, ROOT)).toBe(true);
    expect(canKeepCompiled(ROOT, ROOT)).toBe(true);
    expect(canKeepCompiled(`${ROOT}lib/a.md`, ROOT)).toBe(false);
    expect(canKeepCompiled(`${ROOT}wiki/lib/`, ROOT)).toBe(false);
    expect(canKeepCompiled("kb://users/b/lib/", ROOT)).toBe(false);
    expect(canKeepCompiled(null, ROOT)).toBe(false);
  });
});
