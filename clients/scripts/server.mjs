// Starts a real `credence serve` on a free loopback port with a throwaway
// data directory, the way web/scripts/api-types.mjs and web/e2e/harness.mjs
// do: the port is read from the server's "listening" log line, so there is
// no race for a port chosen in advance. Used by generate.mjs (the OpenAPI
// document the client is generated from) and by the tests.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

export function credenceBinary() {
  const binary = process.env.CREDENCE_BINARY ?? resolve(here, "../../build/release/src/app/credence");
  if (!existsSync(binary)) {
    throw new Error(`no credence binary at ${binary} (build it, or set CREDENCE_BINARY)`);
  }
  return binary;
}

export async function startCredence(args = []) {
  const binary = credenceBinary();
  const dataDir = mkdtempSync(join(tmpdir(), "credence-clients-"));
  const server = spawn(
    binary,
    ["serve", "--listen", "127.0.0.1:0", "--data-dir", dataDir, "--jobs-interval-ms", "0", ...args],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let log = "";
  let exited = false;
  const exit = new Promise((ok) => server.on("exit", () => ((exited = true), ok())));
  const base = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`${binary} did not start within 30 s:\n${log}`)), 30000);
    server.on("error", fail);
    server.on("exit", (code) => fail(new Error(`${binary} exited (${code}):\n${log}`)));
    server.stderr.on("data", (chunk) => {
      log += chunk;
      if (log.length > 200000) log = log.slice(-100000);
      const line = log.split("\n").find((l) => l.includes('"listening"'));
      if (line) {
        clearTimeout(timer);
        ok(`http://127.0.0.1:${JSON.parse(line).port}`);
      }
    });
  });
  return {
    base,
    log: () => log,
    async stop() {
      if (!exited) {
        server.kill("SIGTERM");
        await exit;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
