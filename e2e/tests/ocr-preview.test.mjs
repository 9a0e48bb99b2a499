// A scanned PDF in the preview (issue 24): each OCR page's image, drawn by
// the server, sits beside the text Tesseract read from it, marked as OCR.
// The PDF is made here: the browser draws the pages on a canvas, and the
// JPEGs become an image-only PDF with no text layer.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe } from "node:test";
import { axeViolations, blocking, formatViolations } from "../lib/axe.mjs";
import { screenshot, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

const SCANS = `kb://users/${ADMIN_USER}/scans/`;
const PDF = `${SCANS}harbour-scan.pdf`;
const PAGES = ["Harbour office memo.\nThe ledger stays in vault nine.", "Second sheet.\nThe tide tables are checked daily."];

function hasTesseract() {
  try {
    execFileSync("tesseract", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** drawPages renders each text as a 150 dpi letter page and returns the JPEG bytes. */
async function drawPages(page, texts) {
  const urls = await page.evaluate((texts) => {
    return texts.map((text) => {
      const c = document.createElement("canvas");
      c.width = 1275;
      c.height = 1650;
      const g = c.getContext("2d");
      g.fillStyle = "#fff";
      g.fillRect(0, 0, c.width, c.height);
      g.fillStyle = "#000";
      g.font = "44px serif";
      text.split("\n").forEach((line, i) => g.fillText(line, 120, 220 + i * 80));
      return c.toDataURL("image/jpeg", 0.92);
    });
  }, texts);
  return urls.map((u) => Buffer.from(u.slice(u.indexOf(",") + 1), "base64"));
}

/** imagePDF writes an image-only PDF: one letter page per JPEG, drawn full page. */
function imagePDF(jpegs) {
  const objs = [];
  const add = (parts) => objs.push(parts) && objs.length; // 1-based object number
  const catalog = add([]);
  const pages = add([]);
  const kids = [];
  for (const jpg of jpegs) {
    const img = add([`<< /Type /XObject /Subtype /Image /Width 1275 /Height 1650 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${jpg.length} >>\nstream\n`, jpg, "\nendstream"]);
    const draw = "q 612 0 0 792 0 0 cm /Im0 Do Q";
    const content = add([`<< /Length ${draw.length} >>\nstream\n${draw}\nendstream`]);
    kids.push(add([`<< /Type /Page /Parent ${pages} 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im0 ${img} 0 R >> >> /Contents ${content} 0 R >>`]));
  }
  objs[catalog - 1] = [`<< /Type /Catalog /Pages ${pages} 0 R >>`];
  objs[pages - 1] = [`<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`];
  const chunks = [Buffer.from("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  let size = chunks[0].length;
  const offsets = [];
  objs.forEach((parts, i) => {
    offsets.push(size);
    for (const p of [`${i + 1} 0 obj\n`, ...parts, "\nendobj\n"]) {
      const b = typeof p === "string" ? Buffer.from(p, "latin1") : p;
      chunks.push(b);
      size += b.length;
    }
  });
  const xref = [`xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)].join("");
  chunks.push(Buffer.from(`${xref}trailer\n<< /Size ${objs.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${size}\n%%EOF\n`, "latin1"));
  return Buffer.concat(chunks);
}

/** compiled uploads the PDF and compiles it with the fake model, which parses it (OCR) first. */
async function compiled(api, pdf) {
  await api.mkdir(SCANS);
  const form = new FormData();
  form.append("file", new Blob([pdf], { type: "application/pdf" }), "harbour-scan.pdf");
  await api(`/resources/upload?uri=${encodeURIComponent(SCANS)}`, { method: "POST", body: form, status: 201 });
  const res = await api.raw("/knowledge-agent/compile", { method: "POST", json: { uris: [PDF], model_id: "fake" } });
  const { jobs } = await res.json();
  assert.equal(jobs?.length, 1);
  const deadline = Date.now() + 90_000;
  for (;;) {
    const job = await (await api.raw(`/jobs/${jobs[0].id}`)).json();
    if (job.state === "succeeded") return;
    assert.ok(!["failed", "cancelled"].includes(job.state), `compile: ${JSON.stringify(job)}`);
    assert.ok(Date.now() < deadline, `compile still ${job.state}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe("scanned PDF preview", { timeout: 180_000, skip: !hasTesseract() && "Tesseract is not installed" }, () => {
  const ws = withWorkspace({ env: FAKE_LLM });

  ws.it(
    "shows each scanned page's image beside its recognized text, marked OCR, with no serious axe finding",
    async ({ page }) => {
      const pdf = imagePDF(await drawPages(page, PAGES));
      await compiled(ws.api, pdf);

      await page.reload();
      await treeItem(page, SCANS).click();
      await treeItem(page, PDF).click();
      const split = page.getByTestId("preview-ocr-split");
      await split.waitFor({ timeout: 15_000 });
      assert.match(await page.getByTestId("preview-ocr").innerText(), /OCR/);
      const text = await split.getByLabel("Recognized text").innerText();
      assert.match(text, /vault nine/);
      assert.match(text, /tide tables/);

      const images = split.getByTestId("preview-page-image");
      assert.equal(await images.count(), 2);
      for (const n of [1, 2]) {
        const img = split.getByRole("img", { name: `Page ${n} of harbour-scan.pdf, as scanned` });
        await img.waitFor({ timeout: 30_000 });
        await page.waitForFunction((el) => el.complete && el.naturalWidth > 0, await img.elementHandle());
        const size = await img.evaluate((el) => [el.naturalWidth, el.naturalHeight]);
        assert.deepEqual(size, [1275, 1650], `page ${n} drawn at 150 dpi`);
      }
      await screenshot(page, "ocr-pdf-preview");
      const found = blocking(await axeViolations(page));
      assert.equal(found.length, 0, formatViolations(found));
    },
  );
});
