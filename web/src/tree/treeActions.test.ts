// The toolbar's table names its labels and tooltips by catalogue key (out of
// reach of the catalogue test's scan of t("…") calls), so check them here;
// and the tree's keys stand for the actions the toolbar says they do.

import { describe, expect, it } from "vitest";
import i18n from "../i18n";
import { TREE_ACTIONS, actionForKey, tooltipOf } from "./treeActions";
import type { TreeSelection } from "./treeActions";

const none: TreeSelection = {
  uri: null,
  uris: [],
  folder: "kb://users/a/",
  canMove: false,
  canCompile: true,
  canDownload: false,
  canWrite: false,
  canEdit: false,
  canRename: false,
  canCopyToEdit: false,
  canShare: false,
  canKeepCompiled: false,
};
const all: TreeSelection = { ...none, uri: "kb://users/a/x.md", uris: ["kb://users/a/x.md"], canMove: true, canDownload: true, canWrite: true, canEdit: true, canRename: true, canCopyToEdit: true, canShare: true, canKeepCompiled: true, overview: "kb://users/a/wiki/.overview.md" };
const generated: TreeSelection = { ...none, uri: "kb://users/a/wiki/x.md.md", uris: ["kb://users/a/wiki/x.md.md"], canEdit: true, canCompile: false, canDownload: true };
const several: TreeSelection = { ...all, uris: ["kb://users/a/x.md", "kb://users/a/y.md"], canRename: false, canShare: false, canKeepCompiled: false, canCopyToEdit: false };

describe("tree actions", () => {
  it("name every label and tooltip with a key of the tree catalogue", () => {
    for (const a of TREE_ACTIONS) {
      for (const key of [a.label, ...[none, all, generated, several].map((s) => tooltipOf(a, s))]) {
        expect(i18n.exists(key, { ns: "tree" }), `${a.id}: ${key}`).toBe(true);
      }
    }
  });

  it("turn the one-row actions off for several rows, saying so", () => {
    const rename = TREE_ACTIONS.find((a) => a.id === "rename")!;
    expect(rename.enabled(several)).toBe(false);
    expect(tooltipOf(rename, several)).toBe("toolbar.oneOnly");
    expect(i18n.t("tree:toolbar.oneOnly", { action: i18n.t("tree:rename") })).toBe("Rename (select a single item)");
    expect(TREE_ACTIONS.find((a) => a.id === "delete")!.enabled(several)).toBe(true);
  });

  it("run F2 as rename and Delete as delete", () => {
    expect(actionForKey("F2")?.id).toBe("rename");
    expect(actionForKey("Delete")?.id).toBe("delete");
    expect(actionForKey("Enter")).toBeUndefined();
  });
});
