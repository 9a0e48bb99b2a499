// A file compile made is read-only on the server: the tree offers "Copy to
// edit" on it instead of Rename (Delete stays), the copy is asked of the
// server, and its refusal reads in our words.

import { act } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../api/client";
import { copyToEdit } from "../api/resources";
import type { ResourceNode } from "../api/types";
import i18n from "../i18n";
import { mountEach } from "../testing/mount";
import { messageOf, setErrorReader } from "../ui/errors";
import { canCopyToEdit, canModify, canRename } from "./access";
import type { FolderState } from "./flatten";
import type { TreeActionHost } from "./treeActions";
import { TreeToolbar } from "./TreeToolbar";

const ROOT = "kb://users/bob/";
const WIKI = `${ROOT}wiki/notes/`;
const node = (uri: string, generated: boolean): ResourceNode => ({
  uri,
  name: uri.split("/").filter(Boolean).at(-1)!,
  kind: uri.endsWith("/") ? "dir" : "file",
  size: 1,
  updated_at: "",
  generated,
});
const folders = new Map<string, FolderState>([
  [ROOT, { items: [node(`${ROOT}wiki/`, true), node(`${ROOT}a.md`, false)], nextCursor: null, status: "success", access: "owner" }],
  [WIKI, { items: [node(`${WIKI}a.md.md`, true)], nextCursor: null, status: "success", access: "owner" }],
]);

describe("copy to edit", () => {
  const page = mountEach();
  afterEach(() => {
    vi.unstubAllGlobals();
    void i18n.changeLanguage("en");
  });

  it("is offered on generated files, which may be deleted but not renamed", () => {
    const summary = `${WIKI}a.md.md`;
    expect(canCopyToEdit(summary, folders)).toBe(true);
    expect(canRename(summary, ROOT, folders)).toBe(false);
    expect(canModify(summary, ROOT, folders)).toBe(true);
    expect(canRename(`${ROOT}wiki/`, ROOT, folders)).toBe(false);
    expect(canCopyToEdit(`${ROOT}wiki/`, folders)).toBe(false);
    expect(canCopyToEdit(`${ROOT}a.md`, folders)).toBe(false);
    expect(canRename(`${ROOT}a.md`, ROOT, folders)).toBe(true);
    expect(canCopyToEdit(null, folders)).toBe(false);
  });

  it("is a toolbar button that runs only when offered", () => {
    const onCopy = vi.fn();
    const actions: TreeActionHost = { open: () => {}, refresh: () => {}, pick: () => {}, copyToEdit: onCopy, openFile: () => {}, download: () => {} };
    const selection = (offered: boolean) => ({
      uri: `${WIKI}a.md.md`,
      uris: [`${WIKI}a.md.md`],
      folder: WIKI,
      canWrite: true,
      canMove: false,
      canCompile: !offered,
      canDownload: true,
      canEdit: true,
      canRename: !offered,
      canCopyToEdit: offered,
      canShare: false,
      canKeepCompiled: false,
    });
    const render = (offered: boolean) => page.render(<TreeToolbar selection={selection(offered)} host={actions} refreshing={false} />);
    const button = (label: string) => page.host.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`)!;
    render(true);
    expect(button("Copy to edit").disabled).toBe(false);
    expect(button("Rename").disabled).toBe(true);
    expect(button("Rename").title).toContain("copy it to edit");
    expect(button("Delete").disabled).toBe(false);
    act(() => button("Copy to edit").click());
    expect(onCopy).toHaveBeenCalledTimes(1);
    render(false);
    expect(button("Copy to edit").disabled).toBe(true);
    expect(button("Rename").disabled).toBe(false);
  });

  it("asks the server for a copy of the file", async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => new Response(JSON.stringify(node(`${ROOT}a.md (copy).md`, false)), { status: 201 }));
    vi.stubGlobal("fetch", fetchMock);
    const copy = await copyToEdit(`${WIKI}a.md.md`);
    expect(copy.uri).toBe(`${ROOT}a.md (copy).md`);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/v1/resources/copy");
    expect(init?.method).toBe("POST");
    expect(JSON.parse(String(init?.body))).toEqual({ uri: `${WIKI}a.md.md` });
  });

  it("explains generated_read_only in the UI's language", async () => {
    setErrorReader("bob");
    const err = new ApiError(
      403,
      "generated_read_only",
      "a.md.md is made by compile and read-only",
      { uri: `${WIKI}a.md.md` },
    );
    expect(messageOf(err)).toBe("wiki/notes/a.md.md was made by compile and is read-only. Use Copy to edit to change a copy, or edit its sources and compile again.");
    await i18n.changeLanguage("zh-CN");
    expect(messageOf(err)).toBe("“wiki/notes/a.md.md”由编译生成，只读。请用“复制以编辑”修改副本，或修改其源文件后重新编译。");
    setErrorReader(null);
  });
});
