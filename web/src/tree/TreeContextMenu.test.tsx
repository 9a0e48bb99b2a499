// The rows' context menu: the actions for the selection in a fixed order,
// the ones that need one row off for several, and the WAI-ARIA menu keys.

import { act } from "react";
import { describe, expect, it, vi } from "vitest";
import { mountEach } from "../testing/mount";
import { menuActions, treeSelection } from "./treeActions";
import type { TreeSelection } from "./treeActions";
import type { FolderState } from "./flatten";
import { TreeContextMenu } from "./TreeContextMenu";

const ROOT = "kb://users/a/";
const file = (uri: string, generated = false) => ({ uri, name: uri.split("/").at(-1)!, kind: "file" as const, size: 1, updated_at: "", generated });
const folders = new Map<string, FolderState>([
  [ROOT, { items: [file(`${ROOT}x.md`), file(`${ROOT}y.md`)], nextCursor: null, status: "success", access: "owner" }],
  [`${ROOT}wiki/`, { items: [file(`${ROOT}wiki/x.md.md`, true)], nextCursor: null, status: "success", access: "owner" }],
]);
const one = treeSelection(`${ROOT}x.md`, ROOT, folders);
const two = treeSelection(`${ROOT}y.md`, ROOT, folders, [`${ROOT}x.md`, `${ROOT}y.md`]);
const summary = treeSelection(`${ROOT}wiki/x.md.md`, ROOT, folders);

describe("the rows' context menu", () => {
  const page = mountEach();

  it("lists Compile first; Rename and Share need one row; Copy to edit only on generated files", () => {
    const ids = (s: TreeSelection) => menuActions(s).map((a) => a.id);
    expect(ids(one)).toEqual(["compile", "keep-compiled", "share", "rename", "move", "delete", "download"]);
    expect(ids(summary)).toContain("copy-to-edit");
    const on = (s: TreeSelection) => menuActions(s).filter((a) => a.enabled(s)).map((a) => a.id);
    expect(on(one)).toEqual(["compile", "share", "rename", "move", "delete", "download"]);
    expect(on(two)).toEqual(["compile", "move", "delete", "download"]);
    expect(on(summary)).toEqual(["share", "delete", "download", "copy-to-edit"]);
  });

  it("opens with no item active; arrows, Home and End move, Enter runs, Escape closes and refocuses", () => {
    const onRun = vi.fn();
    const onClose = vi.fn();
    page.render(<TreeContextMenu at={{ x: 10, y: 10 }} selection={two} label="Actions on 2 items" onRun={onRun} onClose={onClose} />);
    const menu = document.querySelector<HTMLElement>('[role="menu"]')!;
    expect(menu.getAttribute("aria-label")).toBe("Actions on 2 items");
    expect(document.activeElement).toBe(menu);
    const key = (k: string) => act(() => void (document.activeElement as HTMLElement).dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true })));
    const active = () => document.activeElement?.textContent?.trim();
    key("ArrowDown");
    expect(active()).toBe("Compile…");
    key("ArrowUp");
    expect(active()).toBe("Download");
    key("Home");
    key("ArrowDown");
    key("ArrowDown");
    expect(active()).toBe("Share");
    expect(document.activeElement?.getAttribute("aria-disabled")).toBe("true");
    key("Enter"); // off for two rows: nothing runs
    expect(onRun).not.toHaveBeenCalled();
    key("Home");
    key("Enter");
    expect(onRun).toHaveBeenCalledWith(expect.objectContaining({ id: "compile" }));
    key("Escape");
    expect(onClose).toHaveBeenCalledWith(true);
  });
});
