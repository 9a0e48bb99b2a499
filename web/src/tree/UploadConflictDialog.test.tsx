// The conflict dialog answers with the button pressed, and "apply to all"
// only when other files of the upload are still to go.

import { act } from "react";
import { beforeEach, describe, expect, it } from "vitest";
import { mountEach } from "../testing/mount";
import type { ResourceNode } from "../api/types";
import { UploadConflictDialog } from "./UploadConflictDialog";
import type { ConflictAnswer } from "./uploadConflicts";

const existing: ResourceNode = {
  uri: "kb://users/admin/plan.md",
  name: "plan.md",
  kind: "file",
  size: 2048,
  updated_at: "2026-01-02T03:04:05Z",
  generated: false,
};

describe("UploadConflictDialog", () => {
  const page = mountEach();
  let answers: ConflictAnswer[];
  beforeEach(() => {
    answers = [];
  });

  const render = (more: boolean) =>
    page.render(<UploadConflictDialog question={{ name: "plan.md", existing, more }} onAnswer={(a) => answers.push(a)} />);
  const button = (label: string) =>
    [...page.host.querySelectorAll<HTMLButtonElement>("button")].find((b) => b.textContent === label) as HTMLButtonElement;

  it.each([
    ["Replace", "replace"],
    ["Keep both", "rename"],
    ["Cancel", "cancel"],
  ])("%s answers %s for this file only", (label, choice) => {
    render(false);
    expect(page.host.querySelector("dialog")?.getAttribute("aria-label")).toBe("File already exists");
    expect(page.host.textContent).toContain("2.0 KB");
    expect(page.host.querySelector("input[type=checkbox]")).toBeNull();
    act(() => button(label).click());
    expect(answers).toEqual([{ choice, applyToAll: false }]);
  });

  it("offers apply to all when more files follow", () => {
    render(true);
    const box = page.host.querySelector<HTMLInputElement>("input[type=checkbox]");
    expect(box?.closest("label")?.textContent).toMatch(/Apply to all/);
    act(() => box?.click());
    act(() => button("Keep both").click());
    expect(answers).toEqual([{ choice: "rename", applyToAll: true }]);
  });

  it("Escape is Cancel", () => {
    render(true);
    act(() => {
      page.host.querySelector("dialog")?.dispatchEvent(new Event("cancel", { cancelable: true }));
    });
    expect(answers).toEqual([{ choice: "cancel", applyToAll: false }]);
  });
});
