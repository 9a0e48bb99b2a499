// The conflict dialog answers with the button pressed, and "apply to all"
// only when other files of the upload are still to go.

import { act } from "react";
import { createRoot } from "react-dom/client";
import type { Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ResourceNode } from "../api/types";
import { UploadConflictDialog } from "./UploadConflictDialog";
import type { ConflictAnswer } from "./uploadConflicts";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// jsdom has <dialog> but not always its modal methods.
const proto = HTMLDialogElement.prototype as { showModal?: () => void; close?: () => void };
if (typeof proto.showModal !== "function") {
  proto.showModal = function (this: HTMLDialogElement) {
    this.setAttribute("open", "");
  };
  proto.close = function (this: HTMLDialogElement) {
    this.removeAttribute("open");
  };
}

const existing: ResourceNode = {
  uri: "kb://users/admin/plan.md",
  name: "plan.md",
  kind: "file",
  size: 2048,
  updated_at: "2026-01-02T03:04:05Z",
  generated: false,
};

describe("UploadConflictDialog", () => {
  let host: HTMLDivElement;
  let root: Root;
  let answers: ConflictAnswer[];
  beforeEach(() => {
    host = document.createElement("div");
    document.body.append(host);
    root = createRoot(host);
    answers = [];
  });
  afterEach(() => {
    act(() => root.unmount());
    host.remove();
  });

  const render = (more: boolean) =>
    act(() => root.render(<UploadConflictDialog question={{ name: "plan.md", existing, more }} onAnswer={(a) => answers.push(a)} />));
  const button = (label: string) =>
    [...host.querySelectorAll<HTMLButtonElement>("button")].find((b) => b.textContent === label) as HTMLButtonElement;

  it.each([
    ["Replace", "replace"],
    ["Keep both", "rename"],
    ["Cancel", "cancel"],
  ])("%s answers %s for this file only", (label, choice) => {
    render(false);
    expect(host.querySelector("dialog")?.getAttribute("aria-label")).toBe("File already exists");
    expect(host.textContent).toContain("2.0 KB");
    expect(host.querySelector("input[type=checkbox]")).toBeNull();
    act(() => button(label).click());
    expect(answers).toEqual([{ choice, applyToAll: false }]);
  });

  it("offers apply to all when more files follow", () => {
    render(true);
    const box = host.querySelector<HTMLInputElement>("input[type=checkbox]");
    expect(box?.closest("label")?.textContent).toMatch(/Apply to all/);
    act(() => box?.click());
    act(() => button("Keep both").click());
    expect(answers).toEqual([{ choice: "rename", applyToAll: true }]);
  });

  it("Escape is Cancel", () => {
    render(true);
    act(() => {
      host.querySelector("dialog")?.dispatchEvent(new Event("cancel", { cancelable: true }));
    });
    expect(answers).toEqual([{ choice: "cancel", applyToAll: false }]);
  });
});
