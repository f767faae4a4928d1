import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";

// The built client is served by `credence serve --web-dir web/dist`
// (docs/web-client.md): hashed files under /assets/, index.html at /.
// `npm run dev` proxies the API to a server on :8080.
const api = ["/api", "/auth", "/openapi.json", "/healthz"];

// Beside every text file of the build, FILE.br and FILE.gz at the highest
// levels (the cost is paid once here, not per request): the server sends
// the one the browser accepts (src/http/static_site.cpp). Files under 1 KiB,
// and siblings that would not be smaller, are left out.
function precompress(outDir: string): Plugin {
  const compressible = /\.(js|mjs|css|html|svg|json|txt|ico|webmanifest)$/;
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : compressible.test(e.name) ? [join(dir, e.name)] : [],
    );
  return {
    name: "credence-precompress",
    apply: "build",
    closeBundle() {
      for (const file of walk(outDir)) {
        if (statSync(file).size < 1024) continue;
        const data = readFileSync(file);
        const br = brotliCompressSync(data, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
        });
        const gz = gzipSync(data, { level: 9 });
        if (br.length < data.length) writeFileSync(`${file}.br`, br);
        if (gz.length < data.length) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress(fileURLToPath(new URL("dist", import.meta.url)))],
  build: { outDir: "dist", assetsDir: "assets", sourcemap: false, chunkSizeWarningLimit: 1500 },
  server: { proxy: Object.fromEntries(api.map((p) => [p, "http://127.0.0.1:8080"])) },
});
