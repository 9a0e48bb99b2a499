// A PDF in the preview is drawn page by page (issue 40 item 1): a 17-page
// document shows 17 pages, the page box moves between them, zoom changes
// their size, and a citation of a line on page 12 opens page 12 with the
// cited words highlighted in its text layer. The PDF is printed here by
// Chromium itself, so its text is real, selectable PDF text.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe } from "node:test";
import { askAndWait } from "../lib/agent.mjs";
import { axeViolations, blocking, formatViolations } from "../lib/axe.mjs";
import { NARROW, launchBrowser, screenshot, treeItem } from "../lib/browser.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";
import { ADMIN_USER, E2E_DIR } from "../lib/server.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
const FILE = `${ROOT}harbour-log.pdf`;
const PAGES = 17;
const CITED_PAGE = 12;
const PHRASE = "amber lantern signal";
// Chinese set in a font the file names but does not embed (STSong-Light):
// drawing and reading it needs pdf.js's character maps.
const CJK = path.join(E2E_DIR, "..", "internal", "extract", "testdata", "pdf", "reportlab-cjk-cid.pdf");

/** printPDF has Chromium print one A4 page per section; page 12 holds PHRASE. */
async function printPDF() {
  const browser = await launchBrowser();
  const sections = Array.from({ length: PAGES }, (_, i) => {
    const n = i + 1;
    const extra = n === CITED_PAGE ? `<p>The keeper wrote the ${PHRASE} into the harbour ledger at dusk.</p>` : "";
    return `<section><h1>Harbour log, part ${n}</h1><p>Entry ${n} records the tides and the boats that came in.</p>${extra}</section>`;
  });
  try {
    const page = await browser.newPage();
    await page.setContent(
      `<style>section { break-after: page; font: 16px serif; } section:last-child { break-after: auto; }</style>${sections.join("")}`,
    );
    return await page.pdf({ format: "A4" });
  } finally {
    await browser.close();
  }
}

/** extracted waits until the server has the PDF's text, so search and citations can reach it. */
async function extracted(api, uri) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await api.raw(`/resources/content?uri=${encodeURIComponent(uri)}&limit=10`);
    if (res.ok && (await res.json()).body === "l2") return;
    assert.ok(Date.now() < deadline, `no text for ${uri} yet`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

const currentPage = (page) => page.getByTestId("pdf-pages").getAttribute("data-current-page");

describe("PDF viewer", { timeout: 180_000 }, () => {
  const ws = withWorkspace({
    env: FAKE_LLM,
    seed: async ({ api }) => {
      await api.upload(ROOT, { "harbour-log.pdf": new Uint8Array(await printPDF()) });
      await api.upload(ROOT, { "guide-zh.pdf": new Uint8Array(await readFile(CJK)) });
      await extracted(api, FILE);
    },
  });

  ws.it(`shows all ${PAGES} pages, moves between them and zooms`, async ({ page }) => {
    await treeItem(page, FILE).click();
    const viewer = page.getByTestId("pdf-pages");
    await viewer.waitFor({ timeout: 20_000 });
    assert.equal(await page.getByRole("button", { name: "Pages", exact: true }).getAttribute("aria-pressed"), "true");
    await page.locator(".pdf-page").nth(PAGES - 1).waitFor({ state: "attached" });
    assert.equal(await page.locator(".pdf-page").count(), PAGES);
    const nav = page.getByRole("navigation", { name: "Pages of the document" });
    await nav.getByText(`of ${PAGES}`).waitFor();
    await page.locator('.pdf-page[data-page="1"][data-rendered="true"]').waitFor({ timeout: 20_000 });
    // Only pages near the view are drawn.
    assert.equal(await page.locator(`.pdf-page[data-page="${PAGES}"] canvas`).count(), 0);

    const box = nav.getByLabel(`Page number, 1 to ${PAGES}`);
    await box.fill("9");
    await box.press("Enter");
    await page.locator('.pdf-page[data-page="9"][data-rendered="true"]').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="pdf-pages"]')?.getAttribute("data-current-page") === "9");
    await page.locator('.pdf-page[data-page="9"] .textLayer').getByText("Harbour log, part 9").waitFor();
    await nav.getByRole("button", { name: "Next page" }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="pdf-pages"]')?.getAttribute("data-current-page") === "10");
    assert.equal(await box.inputValue(), "10");
    await nav.getByRole("button", { name: "Previous page" }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="pdf-pages"]')?.getAttribute("data-current-page") === "9");

    const width = async () => (await page.locator('.pdf-page[data-page="9"]').boundingBox()).width;
    const fit = await width();
    await nav.getByRole("button", { name: "Zoom in" }).click();
    await page.waitForFunction((w) => document.querySelector('.pdf-page[data-page="9"]').getBoundingClientRect().width > w + 10, fit);
    await nav.getByRole("button", { name: "Fit width" }).click();
    await page.waitForFunction((w) => Math.abs(document.querySelector('.pdf-page[data-page="9"]').getBoundingClientRect().width - w) < 2, fit);
    assert.equal(await currentPage(page), "9");

    // Text shows the extracted text, as before.
    await page.getByRole("button", { name: "Text", exact: true }).click();
    await page.locator(".preview-scroll pre.plain").getByText("Harbour log, part 1", { exact: false }).first().waitFor();
    await page.getByRole("button", { name: "Pages", exact: true }).click();
    await viewer.waitFor();

    const found = blocking(await axeViolations(page));
    assert.equal(found.length, 0, formatViolations(found));
  });

  ws.it(`opens a citation of page ${CITED_PAGE} at that page with the passage highlighted`, async ({ page }) => {
    await page.reload();
    await treeItem(page, `${ROOT}Welcome.md`).click();
    const { msg } = await askAndWait(page, `find "${PHRASE}"`);
    const link = msg.locator(`.answer a.kb-link[data-kb-uri="${FILE}"]`).first();
    await link.click();
    await page.getByTestId("pdf-pages").waitFor({ timeout: 20_000 });
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid="pdf-pages"]')?.getAttribute("data-current-page") === String(n),
      CITED_PAGE,
      { timeout: 20_000 },
    );
    const hit = page.locator(`.pdf-page[data-page="${CITED_PAGE}"] .textLayer .pdf-hit`).first();
    await hit.waitFor({ timeout: 20_000 });
    assert.match(await page.locator(`.pdf-page[data-page="${CITED_PAGE}"] .textLayer .pdf-hit`).allInnerTexts().then((t) => t.join(" ")), /amber/);
    assert.ok(await hit.isVisible());
    const inView = await hit.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const v = el.closest(".preview-scroll").getBoundingClientRect();
      return r.top >= v.top && r.bottom <= v.bottom;
    });
    assert.ok(inView, "the highlighted passage is scrolled into view");
    await screenshot(page, "pdf-viewer-wide");
    assert.deepEqual(page.consoleErrors, [], "no console errors (a policy violation would be one)");
  });

  ws.it("draws Chinese in a font the PDF does not embed, with the character maps our server serves", async ({ page }) => {
    const maps = [];
    page.on("response", (res) => {
      if (res.url().includes("/cmaps/")) maps.push([new URL(res.url()).origin, res.status()]);
    });
    await treeItem(page, `${ROOT}guide-zh.pdf`).click();
    await page.locator('.pdf-page[data-page="1"] .textLayer').getByText("知识工作区使用指南").waitFor({ timeout: 20_000 });
    assert.ok(maps.length > 0, "a character map was fetched");
    // pdf.js decodes JPEG 2000 and JBIG2 images with WebAssembly: the page's policy must let it compile.
    const wasm = await page.evaluate(() =>
      WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(
        () => "compiled",
        (err) => String(err),
      ),
    );
    assert.equal(wasm, "compiled");
    for (const [origin, status] of maps) {
      assert.equal(origin, ws.server.baseURL.replace(/\/$/, ""));
      assert.equal(status, 200);
    }
  });

  ws.it("fits a phone: a page fills the width and the bar wraps instead of overflowing", async () => {
    const page = await ws.open({ viewport: NARROW });
    await treeItem(page, FILE).click();
    await page.locator('.pdf-page[data-page="1"][data-rendered="true"]').waitFor({ timeout: 20_000 });
    const fit = await page.evaluate(() => {
      const box = document.querySelector('.pdf-page[data-page="1"]').getBoundingClientRect();
      const bar = document.querySelector(".pdf-toolbar");
      return { right: box.right, overflow: bar.scrollWidth - bar.clientWidth };
    });
    assert.ok(fit.right <= NARROW.width, `page 1 ends at ${fit.right}px`);
    assert.ok(fit.overflow <= 0, `the bar overflows by ${fit.overflow}px`);
    await screenshot(page, "pdf-viewer-narrow");
  });
});
