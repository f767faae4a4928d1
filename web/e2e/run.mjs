// End-to-end tests of the web client (ctest web_e2e; docs/web-client.md).
// Runs every journey in e2e/journeys/ (or the ones named on the command
// line: `node e2e/run.mjs kb-basics trust`) against one real server, each in
// a fresh browser tab with no session. Exits 77 (ctest: skipped) only when no
// Chromium can be found, saying so.
//   CREDENCE_BINARY (default ../build/release/src/app/credence)
//   CREDENCE_CHROMIUM (default /usr/bin/chromium)
//   CREDENCE_SCREENSHOTS=DIR saves the journeys' screenshots (docs/ui.md)
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Harness, checkPrerequisites, launchBrowser, makeWorkDir, removeWorkDir, startServer, webDir } from "./harness.mjs";

checkPrerequisites();
const { chromium } = await import("playwright-core");

const wanted = process.argv.slice(2);
const journeys = readdirSync(join(webDir, "e2e/journeys"))
  .filter((f) => f.endsWith(".mjs"))
  .map((f) => f.slice(0, -4))
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort();
if (wanted.length && journeys.length !== wanted.length) {
  console.error(`FAILED: no such journey among ${wanted.join(", ")}`);
  process.exit(1);
}

const work = makeWorkDir();
let server;
let context;
const failures = [];
try {
  server = await startServer(work);
  console.log(`server at ${server.base}`);
  context = await launchBrowser(chromium, work);
  for (const name of journeys) {
    const started = Date.now();
    console.log(`journey ${name}`);
    const h = new Harness(server.base, context);
    const page = await h.open();
    try {
      const journey = await import(join(webDir, "e2e/journeys", `${name}.mjs`));
      await journey.run(h);
      h.assertNoProblems();
      console.log(`  ok (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } catch (e) {
      const shot = join(tmpdir(), `credence-web-e2e-${name}.png`);
      await page.screenshot({ path: shot, fullPage: true }).catch(() => {});
      console.error(`  FAILED: ${e instanceof Error ? e.stack ?? e.message : e}\n  screenshot: ${shot}`);
      failures.push(name);
    } finally {
      await page.close().catch(() => {});
    }
  }
} catch (e) {
  failures.push("setup");
  console.error(`FAILED: ${e instanceof Error ? e.stack ?? e.message : e}`);
} finally {
  if (failures.length && server) console.error(`server log (tail):\n${server.log().split("\n").slice(-30).join("\n")}`);
  await context?.close().catch(() => {});
  server?.stop();
  removeWorkDir(work);
}
if (failures.length) {
  console.error(`FAILED journeys: ${failures.join(", ")}`);
  process.exit(1);
}
console.log(`PASSED: ${journeys.length} journeys`);
