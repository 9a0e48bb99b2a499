import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Plugin } from "vite";

// The dev server forwards the API to a locally running knowspace binary.
// timeout/proxyTimeout 0 keep KnowAgent's SSE stream open indefinitely.
const apiTarget = process.env.KNOWSPACE_API ?? "http://127.0.0.1:8080";

// pdf.js fetches some files by name at run time: the character maps of
// fonts a PDF names without embedding them (most Chinese PDFs), the
// standard fonts, and the WebAssembly image decoders (JPEG 2000, JBIG2,
// colour profiles). pdfjsAssets copies them into the build under
// assets/pdfjs-<version>/, so our own server serves them (cached for good:
// the version is in the path) and the viewer asks no one else.
const require = createRequire(import.meta.url);
const root = path.dirname(require.resolve("pdfjs-dist/package.json"));
const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
const DIRS = ["cmaps", "standard_fonts", "wasm"];

/** PDFJS_ASSETS is where the build puts them; src/preview/pdf/pdfjs.ts names the same place. */
const PDFJS_ASSETS = `assets/pdfjs-${version}`;

function pdfjsAssets(): Plugin {
  return {
    name: "knowspace-pdfjs-assets",
    apply: "build",
    generateBundle() {
      for (const dir of DIRS) {
        for (const name of readdirSync(path.join(root, dir))) {
          this.emitFile({ type: "asset", fileName: `${PDFJS_ASSETS}/${dir}/${name}`, source: readFileSync(path.join(root, dir, name)) });
        }
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), pdfjsAssets()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    proxy: {
      "/api": { target: apiTarget, changeOrigin: false, timeout: 0, proxyTimeout: 0 },
      "/healthz": { target: apiTarget },
    },
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    setupFiles: ["src/testing/setup.ts"],
  },
});
