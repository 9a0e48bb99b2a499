// Team knowledge (issue #21) through the web app: the admin makes a group on
// the Groups screen and shares a folder with it in the Share dialog; a member
// finds it under "Shared with me", reads a file, asks KnowAgent about the
// folder; the owner revokes the share and the member loses it.

import assert from "node:assert/strict";
import { before, describe } from "node:test";
import { loginThroughUI, newFolder, previewContent, screenshot, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { answerText, askAndWait, chatBox, recordStreams } from "../lib/agent.mjs";
import { axeViolations, blocking, formatViolations } from "../lib/axe.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
const PAPERS = `${ROOT}papers/`;
const FINDINGS = `${PAPERS}findings.md`;
const SHARED = "kb://shared/";
const MEMBER = "bea";
const MEMBER_PASSWORD = "bea-e2e-Password-1";
const FINDING = "Tardigrades survive the vacuum of space.";

describe("sharing a folder with a group", { timeout: 240_000 }, () => {
  let page; // the admin, who owns papers/
  let member; // bea, in her own browser context
  let streams;
  const ws = withWorkspace({
    env: FAKE_LLM,
    seed: async ({ api }) => {
      await api.createUser(MEMBER, MEMBER_PASSWORD);
      await api.mkdir(PAPERS);
      await api.upload(PAPERS, { "findings.md": `# Findings\n\n${FINDING}\n`, "notes.txt": "lab notes\n" });
    },
    ready: ({ page }) => treeItem(page, PAPERS).waitFor(),
  });
  before(() => ({ page } = ws));

  const api = (path, init) => ws.api(path, init);

  /** checkAxe fails on serious or critical violations inside the open dialog (or the page), in both colour schemes. */
  async function checkAxe(p, screen, include = "dialog[open]") {
    for (const colorScheme of ["light", "dark"]) {
      await p.emulateMedia({ colorScheme });
      const all = await axeViolations(p, include);
      const bad = blocking(all);
      const minor = all.filter((v) => !bad.includes(v));
      if (minor.length) console.log(`# ${screen} (${colorScheme}), minor/moderate:\n${formatViolations(minor)}`);
      assert.equal(bad.length, 0, `${screen} (${colorScheme}):\n${formatViolations(bad)}`);
    }
    await p.emulateMedia({ colorScheme: "light" });
  }

  // The Groups screen is a section of the Admin page (issue 17).
  const groupsScreen = () => page.getByRole("region", { name: "Groups" });
  const shareDialog = (name) => page.getByRole("dialog", { name: `Share ${name}` });
  /** ownerShares is the admin opening papers/' Share dialog again. */
  async function ownerShares() {
    ws.show(page);
    await treeItem(page, PAPERS).click();
    await page.getByRole("button", { name: "Share" }).click();
    return shareDialog("papers");
  }
  const isFocused = (loc) => loc.evaluate((el) => el === document.activeElement);

  ws.it(
    "the admin creates, renames and deletes groups and adds a member on the Groups screen",
    async () => {
      await page.getByTestId("user-menu-button").click();
      await page.getByRole("menuitem", { name: "Admin" }).click();
      await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Groups" }).click();
      const dialog = groupsScreen();
      await dialog.getByText(/No groups yet/).waitFor();
      await checkAxe(page, "groups screen, empty", "main");

      const name = dialog.getByLabel("New group");
      // A bad name is refused before any request, with a reason.
      await name.fill("Team Two");
      await dialog.getByRole("button", { name: "Create" }).click();
      await dialog.getByRole("alert").getByText(/lower-case/).waitFor();

      for (const g of ["team", "scratch"]) {
        await name.fill(g);
        await name.press("Enter");
        await dialog.locator(`[data-group="${g}"]`).waitFor();
      }
      assert.ok(await isFocused(name), "focus stays in the name field for the next group");

      const team = dialog.locator('[data-group="team"]');
      await team.getByRole("combobox", { name: "Add a member to team" }).selectOption({ label: MEMBER });
      await team.getByRole("button", { name: "Add to team" }).click();
      await team.locator(`[data-member="${MEMBER}"]`).waitFor();
      await dialog.getByRole("status").getByText(`${MEMBER} is now in team.`).waitFor();
      await team.getByRole("combobox", { name: "Add a member to team" }).selectOption({ label: ADMIN_USER });
      await team.getByRole("button", { name: "Add to team" }).click();
      await team.locator(`[data-member="${ADMIN_USER}"]`).waitFor();
      await team.getByRole("button", { name: `Remove ${ADMIN_USER} from team` }).click();
      await team.locator(`[data-member="${ADMIN_USER}"]`).waitFor({ state: "detached" });
      assert.ok(await isFocused(team.getByRole("combobox", { name: "Add a member to team" })), "focus lands on the member picker");
      await checkAxe(page, "groups screen with groups", "main");
      await screenshot(page, "groups-wide");

      // Rename scratch, then delete it (each asks in a dialog of its own).
      await dialog.getByRole("button", { name: "Rename group scratch" }).click();
      const rename = page.getByRole("dialog", { name: "Rename group scratch" });
      await rename.getByLabel("New name").fill("scratch-2");
      await rename.getByRole("button", { name: "Rename" }).click();
      await rename.waitFor({ state: "detached" });
      await dialog.locator('[data-group="scratch-2"]').waitFor();
      await dialog.getByRole("button", { name: "Delete group scratch-2" }).click();
      const confirm = page.getByRole("dialog", { name: "Delete group" });
      await confirm.getByRole("button", { name: "Delete group" }).click();
      await dialog.locator('[data-group="scratch-2"]').waitFor({ state: "detached" });

      const groups = (await api("/admin/groups")).items;
      assert.deepEqual(
        groups.map((g) => [g.name, g.members.map((m) => m.username)]),
        [["team", [MEMBER]]],
      );
      // Back to the files for the next steps.
      await page.getByRole("link", { name: "Back to files" }).click();
      await treeItem(page, PAPERS).waitFor();
    },
  );

  ws.it(
    "the owner shares papers/ with the group in the Share dialog; the row gets a Shared badge",
    async () => {
      const shareButton = page.getByRole("button", { name: "Share" });
      await treeItem(page, `${ROOT}Welcome.md`).click();
      assert.equal(await shareButton.isEnabled(), true, "own files can be shared");
      await treeItem(page, PAPERS).click();
      assert.equal(await treeItem(page, PAPERS).getByRole("img", { name: "Shared" }).count(), 0);
      await shareButton.click();
      const dialog = shareDialog("papers");
      const search = dialog.getByRole("combobox", { name: "Person or group" });
      await search.waitFor();
      assert.ok(await isFocused(search), "the dialog opens in the search field");
      await dialog.getByText(/Only you can see this/).waitFor();
      await checkAxe(page, "share dialog, not shared");

      // Escape first closes the open hit list, not the dialog.
      await search.pressSequentially("be");
      await dialog.getByRole("option", { name: MEMBER }).waitFor();
      await search.press("Escape");
      await dialog.getByRole("listbox").waitFor({ state: "hidden" });
      assert.equal(await dialog.isVisible(), true, "the dialog stays open");

      // Pick the group with the keyboard, then share it read-only.
      await search.fill("");
      await search.pressSequentially("te");
      const option = dialog.getByRole("option", { name: "team (group)" });
      await option.waitFor();
      assert.equal(await option.getAttribute("aria-selected"), "true");
      await checkAxe(page, "share dialog, searching");
      await search.press("Enter");
      assert.equal(await search.inputValue(), "team");
      assert.equal(await dialog.getByLabel("Role", { exact: true }).inputValue(), "read");
      await dialog.getByRole("button", { name: "Share", exact: true }).click();
      const row = dialog.locator('[data-share="group:team"]');
      await row.waitFor();
      await dialog.getByRole("status").getByText("team (group) can now read it.").waitFor();
      assert.equal(await row.getByRole("combobox", { name: "Role for team (group)" }).inputValue(), "read");
      assert.equal(await search.inputValue(), "", "the search is cleared for the next one");
      await checkAxe(page, "share dialog, shared with a group");
      await screenshot(page, "share-dialog-wide");

      const shares = (await api(`/resources/shares?uri=${encodeURIComponent(PAPERS)}`)).items;
      assert.deepEqual(
        shares.map((s) => [s.group?.name, s.role, s.inherited]),
        [["team", "read", false]],
      );
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      assert.ok(await isFocused(shareButton), "focus goes back to the Share button");
      await treeItem(page, PAPERS).getByRole("img", { name: "Shared" }).waitFor();

      // A file inside lists the folder's share as inherited, and cannot change it there.
      await treeItem(page, FINDINGS).click();
      await shareButton.click();
      const inner = shareDialog("findings.md");
      const inherited = inner.locator('[data-share="group:team"]');
      await inherited.waitFor();
      assert.match(await inherited.innerText(), /team \(group\)\s*Read · via papers\//);
      assert.equal(await inherited.getByRole("combobox").count(), 0);
      assert.equal(await inherited.getByRole("button").count(), 0);
      await inner.getByRole("button", { name: "Done" }).click();
      await inner.waitFor({ state: "detached" });
    },
  );

  ws.it(
    "the member sees papers under Shared with me, reads a file and asks KnowAgent about the folder",
    async () => {
      member = await ws.open({ signIn: false });
      streams = recordStreams(member);
      await loginThroughUI(member, MEMBER, MEMBER_PASSWORD);
      const section = treeItem(member, SHARED);
      await section.waitFor();
      assert.equal(await section.getAttribute("aria-expanded"), "true");
      const entry = treeItem(member, PAPERS);
      await entry.waitFor();
      assert.match(await entry.innerText(), /papers — admin/);
      assert.equal(await entry.getAttribute("aria-level"), "2");
      await screenshot(member, "shared-with-me-wide");
      await checkAxe(member, "workspace with Shared with me", null);

      // The folder expands like an own one, with canonical URIs.
      await entry.click();
      assert.equal(await entry.getAttribute("aria-expanded"), "true");
      await treeItem(member, FINDINGS).click();
      await previewContent(member).getByText(FINDING).waitFor();

      // Read-only: every write action is off; Share is the owner's.
      for (const name of ["New folder", "Upload files", "Rename", "Delete", "Share"]) {
        assert.equal(await member.getByRole("button", { name, exact: true }).isDisabled(), true, `${name} is disabled`);
      }
      await member.getByRole("tree", { name: "Files" }).focus();
      await member.keyboard.press("Delete");
      assert.equal(await member.getByRole("dialog").count(), 0, "the Delete key does nothing either");

      // A link to the shared file reveals it after a reload.
      await member.goto(`/?open=${encodeURIComponent(FINDINGS)}`);
      await treeItem(member, FINDINGS).waitFor();
      assert.equal(await treeItem(member, FINDINGS).getAttribute("aria-selected"), "true");
      await previewContent(member).getByText(FINDING).waitFor();

      // Selecting the shared folder makes it KnowAgent's scope, as for an own folder.
      await treeItem(member, PAPERS).click();
      await chatBox(member).waitFor();
      assert.equal(await member.locator(".scope-prefix").innerText(), PAPERS.slice("kb://users/".length), "the owner's folder by owner and path");
      await member.getByLabel("Model").selectOption("fake");
      const { msg, status } = await askAndWait(member, `use ls on ${PAPERS} please`);
      assert.equal(status, "done");
      const card = msg.locator('.tool-card[data-tool="ls"]');
      assert.equal(await card.getAttribute("data-status"), "ok");
      assert.match(await card.locator("summary").innerText(), /2 items/);
      const answer = await answerText(msg);
      assert.match(answer, /^Tool result:/);
      assert.match(answer, /findings\.md/);
      assert.equal(streams.at(-1).uri, PAPERS, "the question was asked in the shared folder");
    },
  );

  ws.it(
    "the owner makes the share writable; the member's write actions come on",
    async () => {
      const dialog = await ownerShares();
      await dialog.getByRole("combobox", { name: "Role for team (group)" }).selectOption("write");
      await dialog.getByRole("status").getByText("team (group) can now edit it.").waitFor();
      assert.deepEqual(
        (await api(`/resources/shares?uri=${encodeURIComponent(PAPERS)}`)).items.map((s) => s.role),
        ["write"],
      );
      await dialog.getByRole("button", { name: "Done" }).click();
      await dialog.waitFor({ state: "detached" });

      ws.show(member);
      await member.reload();
      const entry = treeItem(member, PAPERS);
      await entry.waitFor();
      assert.doesNotMatch(await entry.innerText(), /read-only/);
      await entry.click();
      await treeItem(member, FINDINGS).click();
      for (const name of ["New folder", "Upload files", "Rename", "Delete"]) {
        assert.equal(await member.getByRole("button", { name, exact: true }).isEnabled(), true, `${name} is enabled`);
      }
      // The shared folder itself stays the owner's to rename or delete, and to share.
      await entry.click();
      for (const name of ["Rename", "Delete", "Share"]) {
        assert.equal(await member.getByRole("button", { name, exact: true }).isDisabled(), true, `${name} is disabled on the shared folder`);
      }
      await newFolder(member, "from-bea");
      await treeItem(member, `${PAPERS}from-bea/`).waitFor();
      assert.ok((await api(`/resources?uri=${encodeURIComponent(PAPERS)}`)).items.some((n) => n.name === "from-bea"));
    },
  );

  ws.it(
    "the owner revokes the share; after a reload the member no longer sees it",
    async () => {
      const dialog = await ownerShares();
      await dialog.getByRole("button", { name: "Remove team (group)" }).click();
      await dialog.locator('[data-share="group:team"]').waitFor({ state: "detached" });
      await dialog.getByRole("status").getByText("team (group) no longer has access.").waitFor();
      assert.ok(await isFocused(dialog.getByRole("combobox", { name: "Person or group" })), "focus moves to the search field");
      await dialog.getByRole("button", { name: "Done" }).click();
      await dialog.waitFor({ state: "detached" });
      await treeItem(page, PAPERS).getByRole("img", { name: "Shared" }).waitFor({ state: "detached" });
      assert.deepEqual((await api(`/resources/shares?uri=${encodeURIComponent(PAPERS)}`)).items, []);

      ws.show(member);
      const sharedListed = member.waitForResponse((r) => r.url().includes("/api/v1/resources?") && r.url().includes(encodeURIComponent(SHARED)));
      await member.reload();
      await (await sharedListed).finished();
      await treeItem(member, `kb://users/${MEMBER}/Welcome.md`).waitFor();
      assert.equal(await treeItem(member, SHARED).count(), 0, "the Shared with me section is gone");
      assert.equal(await treeItem(member, PAPERS).count(), 0);
      // The address still names the folder, which the member can no longer list or read.
      assert.equal(await previewContent(member).getByText(FINDING).count(), 0);
    },
  );
});
