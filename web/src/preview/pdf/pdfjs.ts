// pdf.js, set up once. Only the lazily loaded viewer imports this module, so
// neither pdf.js nor its worker weighs on the app's first load; the worker
// is a file of our own build, served by our own server (the policy allows
// scripts from 'self' only).

import { GlobalWorkerOptions, getDocument } from "pdfjs-dist";
import type { PDFDocumentLoadingTask } from "pdfjs-dist";
import workerURL from "pdfjs-dist/build/pdf.worker.min.mjs?url";

GlobalWorkerOptions.workerSrc = workerURL;

export { TextLayer } from "pdfjs-dist";
export type { PDFDocumentProxy, PDFPageProxy } from "pdfjs-dist";

/**
 * openPDF starts parsing a document's bytes. Fonts are drawn without eval
 * (the policy forbids it), and nothing is fetched from elsewhere: a font
 * the file does not embed falls back to the browser's.
 */
export function openPDF(data: Uint8Array): PDFDocumentLoadingTask {
  return getDocument({ data, isEvalSupported: false, useSystemFonts: true, enableXfa: false });
}
