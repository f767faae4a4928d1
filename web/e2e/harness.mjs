// The end-to-end harness (docs/web-client.md): one real `credence` in
// development mode serving web/dist, one Debian Chromium driven by
// playwright-core, and helpers the journeys (e2e/journeys/*.mjs) share.
// Every page a journey opens fails the run on a page error, a console error
// or a CSP violation; h.checkA11y runs axe-core on the page in view and fails
// on any serious or critical violation.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const webDir = resolve(here, "..");
export const binary = process.env.CREDENCE_BINARY ?? resolve(webDir, "../build/release/src/app/credence");
export const chromiumPath = process.env.CREDENCE_CHROMIUM ?? "/usr/bin/chromium";
// Set to a folder to save the screenshots journeys take with h.screenshot.
const screenshotDir = process.env.CREDENCE_SCREENSHOTS;

export function checkPrerequisites() {
  if (!existsSync(chromiumPath)) {
    console.log(`SKIPPED: no Chromium at ${chromiumPath} (apt-get install chromium, or set CREDENCE_CHROMIUM)`);
    process.exit(77);
  }
  for (const [what, path] of [
    ["the built client (npm ci && npm run build in web/)", join(webDir, "dist/index.html")],
    ["playwright-core (npm ci in web/)", join(webDir, "node_modules/playwright-core/package.json")],
    ["the credence binary", binary],
  ]) {
    if (!existsSync(path)) {
      console.error(`FAILED: ${what} is missing: ${path}`);
      process.exit(1);
    }
  }
}

export function step(what) {
  console.log(`  - ${what}`);
}

export function expect(condition, message) {
  if (!condition) throw new Error(message);
}

// Starts a server; `args` are added to `credence serve`. Answers
// {base, log(), stop()}.
export async function startServer(work, args = [], env = {}) {
  let log = "";
  const server = spawn(
    binary,
    ["serve", "--dev", "--listen", "127.0.0.1:0", "--data-dir", join(work, `data-${Date.now()}`),
     "--jobs-interval-ms", "0", "--web-dir", join(webDir, "dist"), ...args],
    { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env } },
  );
  const base = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`the server did not start:\n${log}`)), 30000);
    server.on("exit", (code) => fail(new Error(`the server exited (${code}):\n${log}`)));
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
  return { base, log: () => log, stop: () => server.kill("SIGTERM") };
}

export async function launchBrowser(chromium, work) {
  return chromium.launchPersistentContext(join(work, `profile-${Date.now()}`), {
    executablePath: chromiumPath,
    headless: true,
    locale: "en-US",
    viewport: { width: 1280, height: 900 },
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

const axeSource = readFileSync(join(webDir, "node_modules/axe-core/axe.min.js"), "utf8");

// What a journey gets: h.base, h.page (a fresh tab, no session),
// h.api(method, path, body, token) (fetch from node), h.signIn(persona, tenantId?),
// h.inPage(method, path, body) (fetch from the page, as the client does),
// h.newTenant(name), h.checkA11y(label), h.screenshot(name), h.step, h.expect.
export class Harness {
  constructor(base, context) {
    this.base = base;
    this.context = context;
    this.problems = [];
    this.step = step;
    this.expect = expect;
  }

  async open() {
    // The browser's session is a cookie every tab shares (docs/sign-in.md,
    // "Browser sessions"): a journey starts signed out.
    await this.context.clearCookies();
    this.page = await this.context.newPage();
    this.page.setDefaultTimeout(30000); // ctest runs it beside the API suites
    this.page.on("pageerror", (e) => this.problems.push(`page error: ${e.message}`));
    this.page.on("console", (m) => {
      // Only our own pages count (not an OpenID provider's login page).
      if (!this.page.url().startsWith(this.base)) return;
      if (m.type() === "error" && !/status of (400|401|403|404|409|422)/.test(m.text()))
        this.problems.push(`console error: ${m.text()}`);
      if (/Content.Security.Policy/i.test(m.text())) this.problems.push(`CSP: ${m.text()}`);
    });
    return this.page;
  }

  async api(method, path, body, token) {
    const headers = { Accept: "application/json" };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const r = await fetch(this.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    let json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = text;
    }
    return { status: r.status, json };
  }

  // The demo tenant's id (the seeded one), or the first development tenant.
  async demoTenantId() {
    const r = await this.api("GET", "/auth/dev-tenants");
    expect(r.status === 200 && r.json.length > 0, `GET /auth/dev-tenants: ${r.status}`);
    return r.json[0].id;
  }

  // A fresh development tenant with its four personas, so a journey's data
  // is its own.
  async newTenant(name) {
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-") + "-" + Math.random().toString(36).slice(2, 8);
    const r = await this.api("POST", "/api/tenant/create", { name, slug, enabledLanguages: ["en", "es", "de"] });
    expect(r.status === 201, `POST /api/tenant/create: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json.id;
  }

  async tokenFor(persona, tenantId) {
    const r = await this.api("POST", "/auth/dev-login", { tenantId: tenantId ?? (await this.demoTenantId()), persona });
    expect(r.status === 200, `dev-login ${persona}: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json.token;
  }

  // Signs the browser in as a persona (admin, editor, viewer, guest) without
  // the sign-in page, as the client's persona buttons do (a session in the
  // HttpOnly cookie), and opens `path`. Answers a development token of the
  // same person for the journey's own API calls (h.api).
  async signIn(persona, tenantId, path = "/hubs") {
    const tenant = tenantId ?? (await this.demoTenantId());
    const token = await this.tokenFor(persona, tenant);
    await this.page.goto(`${this.base}/sign-in`);
    const r = await this.inPage("POST", "/auth/dev-login", { tenantId: tenant, persona, cookie: true });
    expect(r.status === 200, `dev-login ${persona} in the browser: ${r.status} ${JSON.stringify(r.json)}`);
    await this.page.goto(`${this.base}${path}`);
    return token;
  }

  // A request from the page as the client sends it: the session cookie (the
  // browser adds it) and the CSRF header. Answers {status, json}.
  async inPage(method, path, body) {
    return this.page.evaluate(
      async ([method, path, body]) => {
        const headers = { Accept: "application/json", "X-Credence-CSRF": "1" };
        if (body !== undefined) headers["Content-Type"] = "application/json";
        const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
        const text = await r.text();
        let json;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = text;
        }
        return { status: r.status, json };
      },
      [method, path, body],
    );
  }

  // axe-core on the page as it is now; serious and critical violations fail.
  async checkA11y(label) {
    const result = await this.page.evaluate(async (source) => {
      if (!window.axe) (0, eval)(source);
      const r = await window.axe.run(document, { resultTypes: ["violations"] });
      return r.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")})`);
    }, axeSource);
    expect(result.length === 0, `accessibility (${label}):\n  ${result.join("\n  ")}`);
  }

  // Saves desktop and phone screenshots when CREDENCE_SCREENSHOTS is set.
  async screenshot(name) {
    if (!screenshotDir) return;
    mkdirSync(screenshotDir, { recursive: true });
    const size = this.page.viewportSize();
    // JPEG: the pictures are kept in the repository (docs/ui.md).
    const shot = (path) => this.page.screenshot({ path, type: "jpeg", quality: 70 });
    await shot(join(screenshotDir, `${name}-desktop.jpg`));
    await this.page.setViewportSize({ width: 390, height: 844 });
    await shot(join(screenshotDir, `${name}-phone.jpg`));
    await this.page.setViewportSize(size);
  }

  assertNoProblems() {
    expect(this.problems.length === 0, this.problems.join("\n"));
  }
}

export function makeWorkDir() {
  return mkdtempSync(join(tmpdir(), "credence-web-e2e-"));
}

export function removeWorkDir(work) {
  rmSync(work, { recursive: true, force: true });
}
