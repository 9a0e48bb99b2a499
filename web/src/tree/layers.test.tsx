// A compiled folder shows its abstract without growing its row, and its
// overview opens from the toolbar.

import { act } from "react";
import { describe, expect, it, vi } from "vitest";
import { mountEach } from "../testing/mount";
import type { ResourceNode } from "../api/types";
import type { FolderState } from "./flatten";
import { overviewOf, rowTitle } from "./layers";
import type { TreeActionHost, TreeSelection } from "./treeActions";
import { TreeRowView } from "./TreeRowView";
import { TreeToolbar } from "./TreeToolbar";

const compiled: ResourceNode = {
  uri: "kb://users/ann/contracts/",
  name: "contracts",
  kind: "dir",
  size: 0,
  updated_at: "2026-01-02T03:04:05Z",
  generated: false,
  abstract: "Supplier contracts of 2026 and their renewal terms.",
  overview_uri: "kb://users/ann/wiki/contracts/.overview.md",
};
const plain: ResourceNode = { ...compiled, uri: "kb://users/ann/plain/", name: "plain", abstract: undefined, overview_uri: undefined };

const listing = (items: ResourceNode[]): Map<string, FolderState> =>
  new Map([["kb://users/ann/", { items, nextCursor: null, status: "success" }]]);

describe("layers", () => {
  it("titles a compiled row with its abstract and address", () => {
    expect(rowTitle(compiled, "contracts/")).toBe("Supplier contracts of 2026 and their renewal terms.\n\ncontracts/");
    expect(rowTitle(plain, "plain/")).toBe("plain/");
  });

  it("finds the selected folder's overview in its parent's listing", () => {
    const folders = listing([compiled, plain]);
    expect(overviewOf(compiled.uri, folders)).toBe(compiled.overview_uri);
    expect(overviewOf(plain.uri, folders)).toBeUndefined();
    expect(overviewOf("kb://users/ann/contracts/a.md", folders)).toBeUndefined();
    expect(overviewOf(null, folders)).toBeUndefined();
    // An entry of "Shared with me" is listed there, not in its owner's folder.
    const entry = { ...compiled, uri: "kb://users/bob/team/", overview_uri: "kb://users/ann/wiki/shared/bob/team/.overview.md" };
    const shared = new Map([["kb://shared/", { items: [entry], nextCursor: null, status: "success" as const }]]);
    expect(overviewOf(entry.uri, shared)).toBe(entry.overview_uri);
  });
});

describe("tree row and toolbar", () => {
  const page = mountEach();

  it("shows the abstract on the name's line, muted and hidden from the accessible name", () => {
    const noop = () => {};
    act(() =>
      page.root.render(
        <div role="tree" aria-label="Files">
          <TreeRowView row={{ type: "node", key: compiled.uri, node: compiled, depth: 0, expanded: false }} selected={false} dropTarget={false} onActivate={noop} onLoadMore={noop} onOpen={noop} />
          <TreeRowView row={{ type: "node", key: plain.uri, node: plain, depth: 0, expanded: false }} selected={false} dropTarget={false} onActivate={noop} onLoadMore={noop} onOpen={noop} />
        </div>,
      ),
    );
    const [row, other] = [...page.host.querySelectorAll<HTMLElement>('[role="treeitem"]')] as [HTMLElement, HTMLElement];
    const sub = row.querySelector(".tree-name .tree-abstract");
    expect(sub?.textContent?.trim()).toBe(compiled.abstract);
    expect(sub?.getAttribute("aria-hidden")).toBe("true");
    expect(row.title).toContain(compiled.abstract);
    // One line: the abstract is inside the name's span, no second block.
    expect(row.querySelectorAll(".tree-name").length).toBe(1);
    expect(other.querySelector(".tree-abstract")).toBeNull();
    expect(other.title).toBe(plain.uri);
  });

  it("marks a file whose text was recognized by OCR", () => {
    const noop = () => {};
    const scan: ResourceNode = { ...plain, uri: "kb://users/ann/scan.png", name: "scan.png", kind: "file", ocr: true };
    const note: ResourceNode = { ...scan, uri: "kb://users/ann/note.md", name: "note.md", ocr: undefined };
    act(() =>
      page.root.render(
        <div role="tree" aria-label="Files">
          <TreeRowView row={{ type: "node", key: scan.uri, node: scan, depth: 0, expanded: false }} selected={false} dropTarget={false} onActivate={noop} onLoadMore={noop} onOpen={noop} />
          <TreeRowView row={{ type: "node", key: note.uri, node: note, depth: 0, expanded: false }} selected={false} dropTarget={false} onActivate={noop} onLoadMore={noop} onOpen={noop} />
        </div>,
      ),
    );
    const [row, other] = [...page.host.querySelectorAll<HTMLElement>('[role="treeitem"]')] as [HTMLElement, HTMLElement];
    const mark = row.querySelector<HTMLElement>("[data-ocr]");
    expect(mark?.textContent).toBe("OCR");
    expect(mark?.title).toContain("recognition errors");
    expect(other.querySelector("[data-ocr]")).toBeNull();
  });

  it("marks a document whose text is being extracted, or could not be", () => {
    const noop = () => {};
    const base: ResourceNode = { ...plain, kind: "file" };
    const nodes: ResourceNode[] = [
      { ...base, uri: "kb://users/ann/a.pdf", name: "a.pdf", text_state: "text_pending" },
      { ...base, uri: "kb://users/ann/b.pdf", name: "b.pdf", text_state: "text_failed" },
      { ...base, uri: "kb://users/ann/c.pdf", name: "c.pdf" },
      { ...base, uri: "kb://users/ann/d.pdf", name: "d.pdf", text_state: "text_pending", text_progress: { pages: 12, of: 40 } },
    ];
    act(() =>
      page.root.render(
        <div role="tree" aria-label="Files">
          {nodes.map((n) => (
            <TreeRowView key={n.uri} row={{ type: "node", key: n.uri, node: n, depth: 0, expanded: false }} selected={false} dropTarget={false} onActivate={noop} onLoadMore={noop} onOpen={noop} />
          ))}
        </div>,
      ),
    );
    const rows = [...page.host.querySelectorAll<HTMLElement>('[role="treeitem"]')];
    expect(rows[0]?.querySelector("[data-text-state]")?.textContent).toBe("Extracting…");
    expect(rows[1]?.querySelector<HTMLElement>("[data-text-state]")?.title).toContain("could not be extracted");
    expect(rows[2]?.querySelector("[data-text-state]")).toBeNull();
    expect(rows[3]?.querySelector("[data-text-state]")?.textContent).toBe("Extracting… 12/40");
    expect(rows[3]?.querySelector<HTMLElement>("[data-text-state]")?.title).toContain("12 of 40 pages");
  });

  it("opens the overview from the toolbar only for a compiled folder", () => {
    const open = vi.fn();
    const actions: TreeActionHost = { open: () => {}, refresh: () => {}, pick: () => {}, copyToEdit: () => {}, openFile: open, download: () => {} };
    const selected = (overview?: string): TreeSelection => ({
      uri: compiled.uri,
      uris: [compiled.uri],
      folder: compiled.uri,
      canWrite: true,
      canMove: true,
      canCompile: true,
      canDownload: false,
      canEdit: true,
      canRename: true,
      canCopyToEdit: false,
      canShare: false,
      canKeepCompiled: false,
      overview,
    });
    const bar = (overview?: string) => <TreeToolbar selection={selected(overview)} host={actions} refreshing={false} />;
    page.render(bar(compiled.overview_uri));
    const button = page.host.querySelector<HTMLButtonElement>('button[aria-label="Open overview"]')!;
    expect(button.disabled).toBe(false);
    act(() => button.click());
    expect(open).toHaveBeenCalledWith(compiled.overview_uri);
    page.render(bar(undefined));
    expect(page.host.querySelector<HTMLButtonElement>('button[aria-label="Open overview"]')!.disabled).toBe(true);
  });
});
