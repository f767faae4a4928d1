import { defineConfig } from "vitest/config";

// Unit tests run in jsdom (the editor's block-id handling needs a DOM); the
// end-to-end tests in e2e/ drive a real Chromium instead.
export default defineConfig({
  test: { environment: "jsdom", include: ["src/**/*.test.ts", "src/**/*.test.tsx"] },
});
