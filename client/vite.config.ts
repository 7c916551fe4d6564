/// <reference types="vitest/config" />
import { defineConfig } from "vite";

// The dev server forwards the API (REST and websocket) to a tetrad server on :8000,
// so `npm run dev` and `make run` can be used side by side.
const backend = process.env.TETRAD_BACKEND ?? "http://127.0.0.1:8000";

export default defineConfig({
  oxc: {
    jsx: { runtime: "automatic", importSource: "preact" },
  },
  server: {
    proxy: {
      "/api": { target: backend, ws: true, changeOrigin: false },
    },
  },
  build: {
    target: "es2022",
    sourcemap: false,
    // The server serves dist/ as its static root.
    outDir: "dist",
    assetsInlineLimit: 0,
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    restoreMocks: true,
  },
});
