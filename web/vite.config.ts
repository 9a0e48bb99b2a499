import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

// The dev server forwards the API to a locally running knowspace binary.
// timeout/proxyTimeout 0 keep KnowAgent's SSE stream open indefinitely.
const apiTarget = process.env.KNOWSPACE_API ?? "http://127.0.0.1:8080";

export default defineConfig({
  plugins: [react()],
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
