// End-to-end test of the web client (ctest web_e2e; docs/web-client.md):
// the real binary in development mode serving web/dist (--web-dir), driven
// in Debian's Chromium by playwright-core. Signs in as the editor persona,
// opens the demo hub, reads the Spanish translation of "Expense policy" and
// sees its stale block marked, then writes a new entry in the editor and
// sees it listed. Fails on any page error, console error or CSP violation.
//
// Exits 77 (ctest: skipped) only when no Chromium can be found, saying so.
//   CREDENCE_BINARY (default ../build/release/src/app/credence)
//   CREDENCE_CHROMIUM (default /usr/bin/chromium)
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const webDir = resolve(here, "..");
const binary = process.env.CREDENCE_BINARY ?? resolve(webDir, "../build/release/src/app/credence");
const chromiumPath = process.env.CREDENCE_CHROMIUM ?? "/usr/bin/chromium";

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
const { chromium } = await import("playwright-core");

const work = mkdtempSync(join(tmpdir(), "credence-web-e2e-"));
let server;
let context;
let log = "";

function step(what) {
  console.log(`- ${what}`);
}

async function startServer() {
  server = spawn(
    binary,
    ["serve", "--dev", "--listen", "127.0.0.1:0", "--data-dir", join(work, "data"), "--jobs-interval-ms", "0",
     "--web-dir", join(webDir, "dist")],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`the server did not start:\n${log}`)), 30000);
    server.on("exit", (code) => fail(new Error(`the server exited (${code}):\n${log}`)));
    server.stderr.on("data", (chunk) => {
      log += chunk;
      const line = log.split("\n").find((l) => l.includes('"listening"'));
      if (line) {
        clearTimeout(timer);
        ok(`http://127.0.0.1:${JSON.parse(line).port}`);
      }
    });
  });
}

let failed = false;
try {
  const base = await startServer();
  step(`server at ${base}`);
  context = await chromium.launchPersistentContext(join(work, "profile"), {
    executablePath: chromiumPath,
    headless: true,
    locale: "en-US",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const problems = [];
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(30000); // ctest runs it beside the API suites
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error" && !/401|404/.test(m.text())) problems.push(`console error: ${m.text()}`);
    if (/Content.Security.Policy/i.test(m.text())) problems.push(`CSP: ${m.text()}`);
  });

  step("open / and sign in as the editor persona");
  await page.goto(`${base}/`);
  await page.getByRole("heading", { name: "Sign in to Credence" }).waitFor();
  await page.locator('button[data-persona="editor"]').click();
  await page.getByRole("heading", { name: "Hubs" }).waitFor();
  await page.getByText("Eddie Editor").waitFor();

  step("open the demo hub: its entries with status badges");
  await page.getByRole("link", { name: "Employee Handbook" }).click();
  await page.getByRole("heading", { name: "Employee Handbook" }).waitFor();
  const expenses = page.locator('li[data-entry-key="expenses"]');
  await expenses.locator(".badge", { hasText: "Published" }).waitFor();

  step("a client route reloads through the server's index.html fallback");
  await page.reload();
  await page.getByRole("heading", { name: "Employee Handbook" }).waitFor();

  step("open the entry, switch to Spanish: the stale block is marked");
  await page.locator('li[data-entry-key="expenses"] a').click();
  await page.getByRole("heading", { name: "Expense policy" }).first().waitFor();
  await page.locator('select[name="language"]').selectOption("es");
  await page.getByRole("heading", { name: "Política de gastos" }).first().waitFor();
  const stale = page.locator('section.block[data-stale="true"]');
  await stale.first().waitFor();
  const staleCount = await stale.count();
  const staleText = await stale.first().innerText();
  if (staleCount !== 1 || !staleText.includes("50 EUR"))
    throw new Error(`expected exactly the meals block marked stale, got ${staleCount}: ${staleText}`);
  await page.getByText("1 of 4 blocks out of date").waitFor();
  if ((await page.locator("section.block").count()) !== 4) throw new Error("expected 4 blocks in the translation");

  step("write a new entry in the editor and see it listed");
  await page.getByRole("link", { name: /Back/ }).click();
  await page.getByRole("link", { name: "New entry" }).click();
  await page.locator('input[name="title"]').fill("Travel checklist");
  const body = page.locator(".tiptap");
  await body.click();
  await page.getByRole("button", { name: "Heading 1" }).click();
  await page.keyboard.type("Before you go");
  await page.keyboard.press("Enter");
  await page.keyboard.type("Book through the travel desk.");
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "Bullet list" }).click();
  await page.keyboard.type("Passport");
  await page.getByRole("button", { name: "Save" }).click();
  await page.locator('li[data-entry-key="travel-checklist"]').waitFor();
  await page.locator('li[data-entry-key="travel-checklist"] .badge', { hasText: "Draft" }).waitFor();

  step("the saved entry reads back with a block id on every top-level block");
  await page.locator('li[data-entry-key="travel-checklist"] a').click();
  await page.getByRole("heading", { name: "Before you go" }).first().waitFor();
  await page.locator("article li", { hasText: "Passport" }).waitFor();
  const ids = await page.locator("section.block").evaluateAll((els) => els.map((e) => e.getAttribute("data-block-id")));
  if (ids.length !== 3 || ids.some((id) => !id) || new Set(ids).size !== 3)
    throw new Error(`expected 3 blocks with distinct ids, got ${JSON.stringify(ids)}`);

  step("an API error shows the problem's detail, not a blank page");
  await page.goto(`${base}/entries/00000000-0000-0000-0000-000000000000`);
  await page.locator('[role="alert"]').waitFor();
  const alert = await page.locator('[role="alert"]').innerText();
  if (!/\(4\d\d\)/.test(alert) || alert.trim().length < 10) throw new Error(`unexpected error box: ${alert}`);

  step("with Spanish as the preferred language the UI speaks Spanish");
  const status = await page.evaluate(async () => {
    const r = await fetch("/api/users/me/preferred-language", {
      method: "PUT",
      headers: { Authorization: `Bearer ${sessionStorage.getItem("credence.token")}`, "Content-Type": "application/json" },
      body: JSON.stringify({ languageCode: "es" }),
    });
    return r.status;
  });
  if (status !== 200 && status !== 204) throw new Error(`PUT preferred-language answered ${status}`);
  await page.goto(`${base}/hubs`);
  await page.getByRole("heading", { name: "Espacios" }).waitFor();
  await page.getByRole("button", { name: "Cerrar sesión" }).waitFor();

  if (problems.length) throw new Error(problems.join("\n"));
  console.log("PASSED: web client end to end");
} catch (e) {
  failed = true;
  console.error(`FAILED: ${e instanceof Error ? e.stack ?? e.message : e}`);
  try {
    if (context?.pages()[0]) await context.pages()[0].screenshot({ path: join(tmpdir(), "credence-web-e2e-failure.png") });
    console.error(`screenshot: ${join(tmpdir(), "credence-web-e2e-failure.png")}`);
  } catch {}
  if (log) console.error(`server log (tail):\n${log.split("\n").slice(-30).join("\n")}`);
} finally {
  await context?.close().catch(() => {});
  server?.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
