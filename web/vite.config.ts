import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// The built client is served by `credence serve --web-dir web/dist`
// (docs/web-client.md): hashed files under /assets/, index.html at /.
// `npm run dev` proxies the API to a server on :8080.
const api = ["/api", "/auth", "/openapi.json", "/healthz"];

export default defineConfig({
  plugins: [react()],
  build: { outDir: "dist", assetsDir: "assets", sourcemap: false, chunkSizeWarningLimit: 1500 },
  server: { proxy: Object.fromEntries(api.map((p) => [p, "http://127.0.0.1:8080"])) },
});
