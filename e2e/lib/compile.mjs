// The compile form as the tests drive it: opened with the chat's "compile"
// quick command in the selected folder, one file picked, the fake model.

import assert from "node:assert/strict";
import { ask } from "./agent.mjs";

/** compileForm is the compile form's dialog, before and after it is submitted. */
export function compileForm(page) {
  return page.getByRole("dialog", { name: /^Compile —/ });
}

/** openCompileForm opens the form and picks the file whose checkbox file names, to compile with the fake model. */
export async function openCompileForm(page, file) {
  await ask(page, "compile");
  const form = compileForm(page);
  await form.waitFor();
  await form.getByRole("checkbox", { name: file }).check();
  await form.getByRole("combobox", { name: "Compile model" }).selectOption("fake");
  return form;
}

/** submitCompile compiles the one picked file; the form says it queued one job, and returns that result. */
export async function submitCompile(form) {
  await form.getByRole("button", { name: /^Compile 1 file$/ }).click();
  const result = form.getByTestId("compile-result");
  await result.waitFor();
  assert.match(await result.innerText(), /1 job queued/);
  return result;
}

/** compileOne compiles file and closes the form without the task center: the tree follows the job by itself. */
export async function compileOne(page, file) {
  const form = await openCompileForm(page, file);
  await submitCompile(form);
  await form.getByRole("button", { name: "Close" }).click();
  await form.waitFor({ state: "detached" });
}
