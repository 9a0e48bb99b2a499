import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe } from "node:test";
import { newFolder, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
// A name every disk allows and the server refuses: a right-to-left override
// makes "bad‮dm.exe" look like another name.
const BAD = "bad\u202edm.txt";
// A file over the server's per-file limit, set aside by the page before it
// is sent (the server would answer 413 before reading the request).
const LIMIT = 64 * 1024;
const BIG = "大文件.bin";

// makeLibrary writes a nested folder with Chinese names, and one file with a
// forbidden name, to a real directory on disk.
function makeLibrary(parent, name) {
  const dir = join(parent, name);
  const files = {
    "摘要.md": "# 摘要\n\n研究的摘要。\n",
    "english.md": "# English\n",
    "子目录/数据.txt": "数据 1,2,3\n",
    "子目录/深层/笔记.md": "# 笔记\n\n深层的笔记。\n",
    [BAD]: "refused\n",
    [BIG]: "x".repeat(LIMIT + 1),
  };
  for (const [rel, body] of Object.entries(files)) {
    const p = join(dir, rel);
    mkdirSync(join(p, ".."), { recursive: true });
    writeFileSync(p, body);
  }
  return { dir, files };
}

describe("folder upload", { timeout: 120_000 }, () => {
  const ws = withWorkspace({ env: { KB_MAX_UPLOAD_BYTES: String(LIMIT) }, ready: ({ page }) => treeItem(page, `${ROOT}Welcome.md`).waitFor() });
  let disk;
  before(() => {
    disk = mkdtempSync(join(tmpdir(), "ks-folder-"));
  });
  after(() => {
    if (disk) rmSync(disk, { recursive: true, force: true });
  });

  async function raw(uri) {
    const res = await ws.api.raw(`/resources/raw?uri=${encodeURIComponent(uri)}`);
    return { status: res.status, body: await res.text() };
  }

  async function names(uri) {
    const list = await ws.api(`/resources?uri=${encodeURIComponent(uri)}`, { status: 200 });
    return list.items.map((n) => n.name);
  }

  // expectLibrary checks every good file arrived with its bytes, the bad
  // and the big one did not, and the upload lists each with its reason.
  async function expectLibrary(base, files, label) {
    for (const [rel, body] of Object.entries(files)) {
      if (rel !== BAD && rel !== BIG) assert.deepEqual(await raw(base + rel), { status: 200, body }, rel);
    }
    assert.deepEqual((await names(base)).sort(), ["english.md", "子目录", "摘要.md"].sort());
    const row = ws.page.locator("li.upload", { hasText: label });
    const failed = row.getByRole("list", { name: "2 files were not uploaded" });
    await failed.waitFor();
    const items = await failed.getByRole("listitem").allInnerTexts();
    const bad = items.find((i) => i.startsWith(`${label}/${BAD}: `));
    assert.match(bad ?? items.join("|"), /direction-changing/);
    const big = items.find((i) => i.startsWith(`${label}/${BIG}: `));
    assert.match(big ?? items.join("|"), /upload limit of 64 KB/);
    assert.match(await row.locator(".upload-status").innerText(), /Uploaded, 2 failed/);
  }

  ws.it(
    "recreates a folder dropped on the tree, and lists the file it refused with its reason",
    async ({ page }) => {
      const { dir, files } = makeLibrary(disk, "研究资料");
      // A real drop of a directory from the desktop: only the browser's own
      // drag (CDP) gives the page directory entries.
      const box = await page.locator(".tree-scroll").boundingBox();
      const at = { x: box.x + box.width / 2, y: box.y + box.height - 20 };
      const cdp = await page.context().newCDPSession(page);
      const data = { items: [], files: [dir], dragOperationsMask: 1 };
      for (const type of ["dragEnter", "dragOver", "drop"]) {
        await cdp.send("Input.dispatchDragEvent", { type, ...at, data });
      }
      await treeItem(page, `${ROOT}研究资料/`).waitFor();
      await expectLibrary(`${ROOT}研究资料/`, files, "研究资料");
      await treeItem(page, `${ROOT}研究资料/`).click();
      await treeItem(page, `${ROOT}研究资料/子目录/`).waitFor();
    },
  );

  ws.it(
    "uploads a folder chosen with the Upload folder button into the selected folder",
    async ({ page }) => {
      const { dir, files } = makeLibrary(disk, "笔记库");
      // A file at the root selected: the new folder goes to the root.
      await treeItem(page, `${ROOT}Welcome.md`).click();
      await newFolder(page, "inbox");
      await treeItem(page, `${ROOT}inbox/`).click();
      const chooser = page.waitForEvent("filechooser");
      await page.getByRole("button", { name: "Upload folder" }).click();
      await (await chooser).setFiles(dir);
      await treeItem(page, `${ROOT}inbox/笔记库/`).waitFor();
      await expectLibrary(`${ROOT}inbox/笔记库/`, files, "笔记库");
    },
  );
});
