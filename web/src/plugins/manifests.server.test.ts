// @vitest-environment node
// The manifest test (knowledge-base.md "Plugin UI slots": every
// UiContributions entry of a manifest names a component that must exist in
// the client): starts the real server (CREDENCE_BINARY, else
// ../build/release/src/app/credence) in development mode, so dev-faults is
// offered too, reads every manifest and every plugin's ui-contributions,
// and fails when a component is missing from the registry or does not load.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadComponent, registeredComponentNames } from "./registry";

const fallbackBinary = resolve(__dirname, "../../../build/release/src/app/credence");
const binary = process.env.CREDENCE_BINARY || (existsSync(fallbackBinary) ? fallbackBinary : "");
if (!binary)
  console.warn(`SKIPPED the manifest test: CREDENCE_BINARY is not set and ${fallbackBinary} does not exist (build the server first).`);

describe.skipIf(!binary)("every plugin manifest's UI contributions exist in the client", () => {
  let server: ChildProcess | undefined;
  let dataDir = "";
  let base = "";
  let token = "";

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "credence-manifests-"));
    server = spawn(binary, ["serve", "--dev", "--listen", "127.0.0.1:0", "--data-dir", dataDir, "--jobs-interval-ms", "0"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let log = "";
    base = await new Promise<string>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`the server did not start:\n${log}`)), 30000);
      server!.on("exit", (code) => fail(new Error(`the server exited (${code}):\n${log}`)));
      server!.stderr!.on("data", (chunk: Buffer) => {
        log += chunk.toString();
        const line = log.split("\n").find((l) => l.includes('"listening"'));
        if (line) {
          clearTimeout(timer);
          ok(`http://127.0.0.1:${JSON.parse(line).port}`);
        }
      });
    });
    const tenants = (await (await fetch(`${base}/auth/dev-tenants`)).json()) as { id: string }[];
    const login = await fetch(`${base}/auth/dev-login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ tenantId: tenants[0].id, persona: "admin" }),
    });
    token = ((await login.json()) as { token: string }).token;
  }, 40000);

  afterAll(() => {
    server?.kill("SIGTERM");
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const get = async <T,>(path: string): Promise<T> => {
    const r = await fetch(base + path, { headers: { Authorization: `Bearer ${token}` } });
    expect(r.status, path).toBe(200);
    return (await r.json()) as T;
  };

  it("names only components the registry has, and each loads", async () => {
    const manifests = await get<{ id: string; uiContributions: Record<string, string> }[]>("/api/plugins");
    expect(manifests.length).toBeGreaterThan(0);
    expect(manifests.map((m) => m.id)).toContain("dev-faults"); // development mode offers it too
    const missing: string[] = [];
    const named = new Set<string>();
    for (const m of manifests) {
      const contributions = await get<{ slot: string; componentName: string; pluginId: string }[]>(
        `/api/plugins/${encodeURIComponent(m.id)}/ui-contributions`,
      );
      // The two answers agree.
      expect(Object.fromEntries(contributions.map((c) => [c.slot, c.componentName]))).toEqual(m.uiContributions);
      for (const c of contributions) {
        expect(c.pluginId).toBe(m.id);
        named.add(c.componentName);
        if (!registeredComponentNames.includes(c.componentName)) missing.push(`${m.id}: ${c.slot} -> ${c.componentName}`);
        else expect(typeof (await loadComponent(c.componentName)), c.componentName).toBe("function");
      }
    }
    expect(missing, `components missing from src/plugins/registry.ts`).toEqual([]);
    // And the registry holds nothing no manifest names (a renamed component).
    expect(registeredComponentNames.filter((n) => !named.has(n))).toEqual([]);
  }, 30000);
});
