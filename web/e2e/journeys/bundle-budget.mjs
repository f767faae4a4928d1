// The initial-JavaScript budget (issue 17: at most 250 KB gzipped): every
// script the browser loads to show the hubs page to a signed-in user,
// gzipped as a proxy would serve it. The timing budgets are measured by
// bench/budgets.mjs (docs/performance.md), not asserted here.
import { gzipSync } from "node:zlib";

export async function run(h) {
  const { page, step, expect } = h;
  step("sign in and load the hubs page, collecting every script");
  const scripts = new Map();
  const collect = async (r) => {
    if (r.request().resourceType() === "script" && r.url().startsWith(h.base)) scripts.set(r.url(), await r.body());
  };
  page.on("response", collect);
  await h.signIn("viewer", await h.demoTenantId(), "/hubs");
  await page.getByRole("heading", { name: "Hubs" }).waitFor();
  await page.waitForLoadState("networkidle");
  page.off("response", collect);
  const gz = [...scripts.values()].reduce((sum, body) => sum + gzipSync(body, { level: 6 }).length, 0);
  step(`${scripts.size} scripts, ${(gz / 1024).toFixed(1)} KiB gzipped`);
  expect(scripts.size > 0, "no scripts seen");
  expect(gz <= 250 * 1000, `initial JavaScript is ${gz} bytes gzipped, over the 250 KB budget`);
  const editorLoaded = [...scripts.keys()].some((u) => /Editor-/.test(u));
  expect(!editorLoaded, "the editor's chunk (TipTap) is loaded on the hubs page");
}
