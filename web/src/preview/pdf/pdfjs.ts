// pdf.js, set up once. Only the lazily loaded viewer imports this module, so
// neither pdf.js nor its worker weighs on the app's first load; the worker
// is a file of our own build, served by our own server (the policy allows
// scripts from 'self' only).

import { GlobalWorkerOptions, getDocument, version } from "pdfjs-dist";
import type { PDFDocumentLoadingTask } from "pdfjs-dist";
import workerURL from "pdfjs-dist/build/pdf.worker.min.mjs?url";

GlobalWorkerOptions.workerSrc = workerURL;

export { TextLayer } from "pdfjs-dist";
export type { PDFDocumentProxy, PDFPageProxy } from "pdfjs-dist";

// The build copies pdf.js's character maps, standard fonts and decoders
// here (scripts/pdfjs-assets.ts).
const assets = (dir: string) => new URL(`/assets/pdfjs-${version}/${dir}/`, location.href).href;

/**
 * openPDF starts parsing a document's bytes. Fonts are drawn without eval
 * (the policy forbids it); what pdf.js fetches by name comes from our server.
 */
export function openPDF(data: Uint8Array): PDFDocumentLoadingTask {
  return getDocument({
    data,
    isEvalSupported: false,
    enableXfa: false,
    cMapUrl: assets("cmaps"),
    standardFontDataUrl: assets("standard_fonts"),
    wasmUrl: assets("wasm"),
  });
}
