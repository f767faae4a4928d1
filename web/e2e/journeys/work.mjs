// The work area (docs/web-client.md): translations side by side, expiry
// dashboards, notifications with bulk renewal, analytics. It runs on a
// server of its own, started with the test clock (entries expire when the
// journey moves time) and a machine-translation provider pointed at a fake
// LibreTranslate served here in node (docs/machine-translation.md; the
// server's tests use tests/support/mt_standin.py the same way).
import { createServer } from "node:http";
import { Harness, makeWorkDir, removeWorkDir, startServer } from "../harness.mjs";

const DAY = 24 * 60 * 60 * 1000;

// The page fits a phone (390 px): nothing wider than the viewport, so wide
// tables scroll in place instead of widening the page.
async function fitsPhone(h, label) {
  const size = h.page.viewportSize();
  await h.page.setViewportSize({ width: 390, height: 844 });
  const width = await h.page.evaluate(() => document.documentElement.scrollWidth);
  await h.page.setViewportSize(size);
  h.expect(width <= 390, `${label} is ${width} px wide at phone width`);
}

// LibreTranslate's POST /translate: {q: [texts], source, target} ->
// {translatedText: [texts]}; a text comes back as "[target] text".
async function startFakeLibreTranslate() {
  const requests = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      let body = {};
      try {
        body = JSON.parse(raw || "{}");
      } catch {
        /* answered below */
      }
      requests.push({ path: req.url, body });
      if (req.method !== "POST" || req.url !== "/translate") {
        res.writeHead(404).end();
        return;
      }
      const texts = Array.isArray(body.q) ? body.q : [body.q];
      const out = texts.map((t) => `[${body.target}] ${t}`);
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ translatedText: Array.isArray(body.q) ? out : out[0] }));
    });
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${server.address().port}`, requests, stop: () => server.close() };
}

const para = (id, text) => ({ type: "paragraph", attrs: { blockId: id }, content: [{ type: "text", text }] });
const heading = (id, text) => ({ type: "heading", attrs: { level: 1, blockId: id }, content: [{ type: "text", text }] });
const doc = (...nodes) => JSON.stringify({ type: "doc", content: nodes });
const ids = {
  title: "0b8a6c8e-0000-4000-8000-000000000001",
  meals: "0b8a6c8e-0000-4000-8000-000000000002",
  taxis: "0b8a6c8e-0000-4000-8000-000000000003",
  hotels: "0b8a6c8e-0000-4000-8000-000000000004",
};

export async function run(outer) {
  await withoutMachineTranslation(outer);
  const work = makeWorkDir();
  const mt = await startFakeLibreTranslate();
  let server;
  let h;
  try {
    server = await startServer(work, ["--test-clock", "--mt-libretranslate-url", mt.url]);
    h = new Harness(server.base, outer.context);
    await h.open();
    await journey(h, mt);
    h.assertNoProblems();
  } catch (e) {
    if (server) console.error(`work server log (tail):\n${server.log().split("\n").slice(-20).join("\n")}`);
    if (h?.page) await h.page.screenshot({ path: `${work}/../credence-web-e2e-work-inner.png`, fullPage: true }).catch(() => {});
    throw e;
  } finally {
    await h?.page?.close().catch(() => {});
    server?.stop();
    mt.stop();
    removeWorkDir(work);
  }
}

async function journey(h, mt) {
  const { page, base, step, expect } = h;
  const ok = (r, what, status = [200, 201]) =>
    expect([].concat(status).includes(r.status), `${what}: ${r.status} ${JSON.stringify(r.json)}`);

  step("seed a fresh tenant: an expiry template, a hub, an entry with a Spanish translation");
  const t0 = new Date();
  ok(await h.api("PUT", "/dev/clock", { now: t0.toISOString() }), "freeze the clock");
  const tenant = await h.newTenant("Work journey");
  let admin = await h.tokenFor("admin", tenant);
  let editor = await h.tokenFor("editor", tenant);
  const template = await h.api("POST", "/api/expiry-templates",
    { name: "Monthly", expiryDays: 30, warningDays: 7, graceDays: 3 }, admin);
  ok(template, "create template");
  ok(await h.api("POST", `/api/expiry-templates/${template.json.id}/set-default`, undefined, admin), "set-default");
  ok(await h.api("POST", "/api/hubs", { key: "ops", name: "Operations", defaultExpiryDays: 30, defaultOrgRole: "Editor" }, admin),
    "create hub");
  const created = await h.api("POST", "/api/entries", {
    hubKey: "ops", key: "expenses", title: "Expense policy", originalLanguage: "en",
    content: doc(heading(ids.title, "Expenses"), para(ids.meals, "Meals up to 30 EUR."), para(ids.taxis, "Taxis need a receipt.")),
  }, editor);
  ok(created, "create entry");
  const entryId = created.json.id;
  ok(await h.api("POST", `/api/entries/${entryId}/translations/es`, {
    title: "Política de gastos",
    content: doc(heading(ids.title, "Gastos"), para(ids.meals, "Comidas hasta 30 EUR."), para(ids.taxis, "Los taxis necesitan recibo.")),
  }, editor), "create the Spanish translation");
  const original = (meals, taxis, ...more) =>
    h.api("PUT", `/api/entries/${entryId}`, {
      title: "Expense policy",
      content: doc(heading(ids.title, "Expenses"), para(ids.meals, meals), para(ids.taxis, taxis), ...more),
    }, editor);
  ok(await original("Meals up to 40 EUR.", "Taxis need a receipt."), "edit the original's meals block");
  const spanish = async () => {
    const r = await h.api("GET", `/api/entries/${entryId}/translations`, undefined, editor);
    ok(r, "list translations");
    return r.json.find((t) => t.language === "es");
  };
  expect((await spanish()).staleBlockCount === 1, "the meals block should be stale");

  step("the entry's translations: Spanish is stale, German can be added");
  await h.signIn("editor", tenant, `/entries/${entryId}/translations`);
  await page.getByRole("heading", { name: "Translations of “Expense policy”" }).waitFor();
  await page.locator('tr[data-language="es"][data-status="Stale"] td[data-stale-count="1"]').waitFor();
  await page.locator('li[data-add-language="de"]').waitFor();
  await h.checkA11y("translations list");
  await h.screenshot("work-translations-list");

  step("open the Spanish translation side by side: exactly the meals block is highlighted stale");
  await page.locator('tr[data-language="es"]').getByRole("link", { name: /Open/ }).click();
  await page.getByRole("heading", { name: "Spanish translation of “Expense policy”" }).waitFor();
  const staleRows = page.locator('.aligned-row[data-state="stale"]');
  await staleRows.first().waitFor();
  expect((await staleRows.count()) === 1, `expected one stale row, got ${await staleRows.count()}`);
  expect((await staleRows.first().getAttribute("data-block-id")) === ids.meals, "the stale row should be the meals block");
  const staleText = await staleRows.first().innerText();
  expect(staleText.includes("Meals up to 40 EUR.") && staleText.includes("Comidas hasta 30 EUR."),
    `the stale row should show the new original beside the old translation: ${staleText}`);
  expect((await page.locator(".aligned-row").count()) === 3, "three aligned rows");
  // The change in the original, as a word diff of the text then and now.
  const change = staleRows.first().locator('[data-source-change="diff"]');
  await change.waitFor();
  expect((await change.locator("del").allInnerTexts()).join(" ").includes("30")
    && (await change.locator("ins").allInnerTexts()).join(" ").includes("40"),
    `the diff of the original: ${await change.innerHTML()}`);
  await page.locator('[data-stale-count="1"]').waitFor();
  await h.checkA11y("translation side by side");
  await h.screenshot("work-translation");
  await fitsPhone(h, "translation");

  step("edit the stale block in place and save: the stale count drops (page and API)");
  const mealsRow = page.locator(`.aligned-row[data-block-id="${ids.meals}"]`);
  await mealsRow.getByRole("button", { name: /^Edit/ }).click();
  const blockEditor = mealsRow.locator(".tiptap");
  await blockEditor.waitFor();
  await h.checkA11y("translation block editor");
  await blockEditor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("Comidas hasta 40 EUR.");
  await mealsRow.getByRole("button", { name: "Done" }).click();
  await mealsRow.getByText("Edited, not saved").waitFor();
  expect(await mealsRow.getByRole("button", { name: /^Edit/ }).evaluate((b) => b === document.activeElement),
    "closing the block editor gives the focus back to the row's Edit button");
  await page.getByRole("button", { name: "Save translation (1 changed)" }).click();
  await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
  await page.locator('[data-stale-count="0"]').waitFor();
  expect((await page.locator('.aligned-row[data-state="stale"]').count()) === 0, "no stale row after the save");
  let es = await spanish();
  expect(es.staleBlockCount === 0 && es.status === "UpToDate", `API after the save: ${JSON.stringify(es)}`);
  const full = await h.api("GET", `/api/entries/${entryId}/translations/es`, undefined, editor);
  const nodes = JSON.parse(full.json.content).content;
  expect(nodes.length === 3 && nodes.every((n, i) => n.attrs.blockId === [ids.title, ids.meals, ids.taxis][i]),
    `the saved translation keeps the original's block ids: ${full.json.content}`);
  expect(nodes[1].content[0].text === "Comidas hasta 40 EUR.", `saved text: ${JSON.stringify(nodes[1])}`);

  step("one block marked up to date: its translation still holds after a typo fix in the original");
  ok(await original("Meals up to 40 EUR", "Taxis need a receipt."), "fix the meals block's punctuation");
  await page.reload();
  const typoRow = page.locator(`.aligned-row[data-block-id="${ids.meals}"]`);
  await page.locator(`.aligned-row[data-block-id="${ids.meals}"][data-state="stale"]`).waitFor();
  await typoRow.getByRole("button", { name: /Still correct/ }).click();
  await page.getByRole("status").filter({ hasText: "The block is marked up to date." }).waitFor();
  await page.locator(`.aligned-row[data-block-id="${ids.meals}"][data-state="current"]`).waitFor();
  es = await spanish();
  expect(es.staleBlockCount === 0, `API after marking the block: ${JSON.stringify(es)}`);

  step("mark up to date: after another change of the original, the whole translation is confirmed");
  ok(await original("Meals up to 40 EUR.", "Taxis need a printed receipt."), "edit the original's taxis block");
  await page.reload();
  await page.locator('[data-stale-count="2"]').waitFor();
  await page.locator(`.aligned-row[data-block-id="${ids.taxis}"][data-state="stale"]`).waitFor();
  await page.getByRole("button", { name: "Mark all up to date" }).click();
  await page.getByRole("status").filter({ hasText: "Marked up to date." }).waitFor();
  await page.locator('[data-stale-count="0"]').waitFor();
  es = await spanish();
  expect(es.staleBlockCount === 0 && es.status === "UpToDate", `API after mark up to date: ${JSON.stringify(es)}`);

  step("machine translation: a block added to the original is translated by the provider");
  ok(await original("Meals up to 40 EUR.", "Taxis need a printed receipt.", para(ids.hotels, "Hotels are booked by the travel desk.")),
    "add a block to the original");
  await page.reload();
  const hotelsRow = page.locator(`.aligned-row[data-block-id="${ids.hotels}"]`);
  await page.locator(`.aligned-row[data-block-id="${ids.hotels}"][data-state="missing"]`).waitFor();
  await page.getByRole("button", { name: "Machine translate missing and stale blocks" }).click();
  await hotelsRow.locator(".translated").getByText("[es] Hotels are booked by the travel desk.").waitFor();
  await page.getByRole("status").filter({ hasText: "Machine translation done" }).waitFor();
  expect((await hotelsRow.getAttribute("data-state")) === "current", "the machine-translated block is current");
  es = await spanish();
  expect(es.machineTranslatedBlockCount === 1 && es.missingBlockCount === 0,
    `API after machine translation: ${JSON.stringify(es)}`);
  const sent = mt.requests.filter((r) => r.path === "/translate").flatMap((r) => [].concat(r.body.q));
  expect(sent.length === 1 && sent[0] === "Hotels are booked by the travel desk.",
    `only the missing block goes to the provider: ${JSON.stringify(sent)}`);

  step("add a German translation by machine translation from the list");
  await page.getByRole("link", { name: "All translations" }).click();
  await page.getByRole("button", { name: "Add German by machine translation" }).click();
  await page.getByRole("heading", { name: "German translation of “Expense policy”" }).waitFor();
  await page.locator(`.aligned-row[data-block-id="${ids.hotels}"]`).getByText("[de] Hotels are booked").waitFor();
  expect((await page.locator('.aligned-row[data-state="current"]').count()) === 4, "four German blocks translated");

  step("delete the German translation, after confirming");
  await page.getByRole("link", { name: "All translations" }).click();
  await page.locator('tr[data-language="de"]').getByRole("button", { name: /Delete/ }).click();
  const dialog = page.getByRole("dialog", { name: "Delete the German translation?" });
  await dialog.waitFor();
  await h.checkA11y("delete translation dialog");
  await dialog.getByRole("button", { name: "Delete translation" }).click();
  await page.locator('tr[data-language="de"]').waitFor({ state: "detached" });
  await page.locator('li[data-add-language="de"]').waitFor();
  const langs = await h.api("GET", `/api/entries/${entryId}/translations`, undefined, editor);
  expect(langs.json.map((t) => t.language).join() === "es", `only Spanish is left: ${JSON.stringify(langs.json)}`);

  step("four published entries near their expiry date raise notifications");
  const ids3 = {};
  for (const [key, title] of [["badges", "Badge policy"], ["parking", "Parking rules"], ["visitors", "Visitor policy"], ["keys", "Key policy"]]) {
    const r = await h.api("POST", "/api/entries",
      { hubKey: "ops", key, title, originalLanguage: "en", content: doc(para(undefined, `${title}.`)) }, editor);
    ok(r, `create ${key}`);
    ok(await h.api("POST", `/api/entries/${r.json.id}/publish`, undefined, editor), `publish ${key}`);
    ids3[key] = r.json.id;
  }
  ok(await h.api("PUT", "/dev/clock", { now: new Date(t0.getTime() + 25 * DAY).toISOString() }), "move the clock 25 days");
  ok(await h.api("POST", "/dev/jobs/run", {}), "run the jobs");
  admin = await h.tokenFor("admin", tenant); // sessions are counted on the server's clock
  editor = await h.tokenFor("editor", tenant);
  const warnings = await h.api("GET", "/api/notifications/expiry-warnings", undefined, editor);
  ok(warnings, "list notifications");
  expect(warnings.json.length === 4 && warnings.json.every((n) => n.kind === "ExpiringSoon"),
    `four ExpiringSoon notifications: ${JSON.stringify(warnings.json)}`);

  step("my expiry dashboard lists the expiring entries");
  await h.signIn("editor", tenant, "/me/expiry");
  await page.getByRole("heading", { name: "My expiry dashboard" }).waitFor();
  for (const key of Object.keys(ids3)) await page.locator(`tr[data-entry-key="${key}"][data-status="ExpiringSoon"]`).waitFor();
  expect((await page.locator('li[data-count="expiringSoon"] .value').innerText()) === "4", "four expiring soon");
  await page.locator('figure.chart svg[role="img"]').first().waitFor();
  await h.checkA11y("my expiry");
  await h.screenshot("work-expiry-dashboard");
  await fitsPhone(h, "expiry");

  step("the tenant summary counts them under their hub");
  await page.getByRole("link", { name: "Summary", exact: true }).click();
  await page.getByRole("heading", { name: "Tenant summary" }).waitFor();
  await page.locator('tr[data-hub-key="ops"] td[data-count="expiringSoon"]', { hasText: "4" }).waitFor();
  await h.checkA11y("summary");

  step("the hub's entries by expiry status, soonest first");
  await page.getByRole("link", { name: "Operations" }).click();
  await page.getByRole("heading", { name: "Expiry in Operations" }).waitFor();
  await page.locator('table.hub-expiry tr[data-entry-key="expenses"][data-status="Draft"]').waitFor();
  expect((await page.locator('table.hub-expiry tr[data-status="ExpiringSoon"]').count()) === 4, "four expiring in the hub");
  await h.checkA11y("hub expiry");

  step("notifications: the navigation counts them; acknowledge one");
  const navCount = page.locator('nav.side a[href="/notifications"] .nav-count');
  await page.locator('nav.side a[href="/notifications"] .nav-count[data-count="4"]').waitFor();
  await page.getByRole("link", { name: /^Notifications/ }).click();
  await page.getByRole("heading", { name: /^Notifications/ }).waitFor();
  await page.locator("tr[data-notification-id]").nth(3).waitFor();
  await h.checkA11y("notifications");
  await h.screenshot("work-notifications");
  await fitsPhone(h, "notifications");
  const visitorRow = page.locator(`tr[data-entry-id="${ids3.visitors}"]`);
  await visitorRow.getByRole("button", { name: /Acknowledge/ }).click();
  await visitorRow.waitFor({ state: "detached" });
  const after = await h.api("GET", "/api/notifications/expiry-warnings", undefined, editor);
  expect(after.json.length === 3 && !after.json.some((n) => n.entryId === ids3.visitors),
    `the acknowledged notification left the list: ${JSON.stringify(after.json)}`);

  step("bulk renew two entries: progress, a result per entry, both renewed");
  await page.getByRole("checkbox", { name: "Select Badge policy" }).check();
  await page.getByRole("checkbox", { name: "Select Parking rules" }).check();
  await page.getByRole("button", { name: "Renew selected (2)" }).click();
  const progress = page.locator(".renew-panel progress");
  await progress.waitFor();
  await page.locator('.renew-results li[data-renewed="true"]').nth(1).waitFor();
  await page.getByText("2 renewed, 0 failed.").waitFor();
  expect((await progress.getAttribute("max")) === "2" && (await progress.getAttribute("value")) === "2",
    "the progress bar counted both entries");
  for (const key of ["badges", "parking"]) {
    const st = await h.api("GET", `/api/entries/${ids3[key]}/expiry-status`, undefined, editor);
    ok(st, `expiry status of ${key}`);
    expect(st.json.status === "Published" && st.json.daysUntilExpiry >= 29, `${key} renewed: ${JSON.stringify(st.json)}`);
  }
  const left = await h.api("GET", "/api/notifications/expiry-warnings", undefined, editor);
  expect(left.json.length === 1 && left.json[0].entryId === ids3.keys,
    `renewing acknowledged their notifications: ${JSON.stringify(left.json)}`);
  await page.locator("tr[data-notification-id]").first().waitFor();
  expect((await page.locator("tr[data-notification-id]").count()) === 1, "one notification left on the page");
  await h.checkA11y("notifications after renewal");

  step("acknowledge all");
  await page.getByRole("button", { name: "Acknowledge all" }).click();
  await page.getByText("No notifications.", { exact: false }).waitFor();
  await navCount.waitFor({ state: "detached" }); // the count follows at once
  const none = await h.api("GET", "/api/notifications/expiry-warnings", undefined, editor);
  expect(none.json.length === 0, `every notification acknowledged: ${JSON.stringify(none.json)}`);

  step("analytics: read counts per entry and hub, with charts");
  ok(await h.api("POST", "/dev/analytics/run", {}), "write the buffered reads");
  await page.getByRole("link", { name: "Analytics", exact: true }).click();
  await page.getByRole("heading", { name: "Analytics", exact: true }).waitFor();
  const expensesRow = page.locator(`table.top-entries tr[data-entry-id="${entryId}"]`);
  await expensesRow.waitFor();
  const reads = Number(await expensesRow.getAttribute("data-reads"));
  const summary = await h.api("GET", `/api/analytics/entries/${entryId}/summary`, undefined, editor);
  expect(reads >= 1 && reads === summary.json.totalReads, `reads shown ${reads}, API ${summary.json.totalReads}`);
  await page.locator('tr[data-hub-key="ops"]').waitFor();
  expect((await page.locator("figure.chart svg g.bar rect").count()) >= 2, "bar charts drawn");
  await h.checkA11y("analytics");
  await h.screenshot("work-analytics");
  await fitsPhone(h, "analytics");

  step("in Spanish: the dashboard speaks Spanish");
  ok(await h.api("PUT", "/api/users/me/preferred-language", { languageCode: "es" }, editor), "prefer Spanish", [200, 204]);
  await page.goto(`${base}/me/expiry`);
  await page.getByRole("heading", { name: "Mi panel de caducidad" }).waitFor();
  await page.getByRole("heading", { name: "Próximos vencimientos" }).waitFor();
  await h.checkA11y("my expiry in Spanish");
}

// On the shared server (no provider configured; GET /api/machine-translation
// says so) machine translation is not offered, and the page says why.
async function withoutMachineTranslation(h) {
  const { page, step, expect } = h;
  step("without a provider, machine translation is not offered");
  const tenant = await h.newTenant("Work no MT");
  const admin = await h.tokenFor("admin", tenant);
  const editor = await h.tokenFor("editor", tenant);
  const hub = await h.api("POST", "/api/hubs", { key: "docs", name: "Docs", defaultExpiryDays: 30, defaultOrgRole: "Editor" }, admin);
  expect(hub.status === 201, `create hub: ${hub.status}`);
  const entry = await h.api("POST", "/api/entries", {
    hubKey: "docs", key: "intro", title: "Intro", originalLanguage: "en", content: doc(para(ids.title, "Welcome.")),
  }, editor);
  expect(entry.status === 201, `create entry: ${entry.status}`);
  const tr = await h.api("POST", `/api/entries/${entry.json.id}/translations/es`, { title: "Intro", content: doc() }, editor);
  expect(tr.status === 201, `create translation: ${tr.status}`);
  await h.signIn("editor", tenant, `/entries/${entry.json.id}/translations/es`);
  await page.locator(`.aligned-row[data-block-id="${ids.title}"][data-state="missing"]`).waitFor();
  await page.getByText("Machine translation is not configured on this server").waitFor();
  expect((await page.getByRole("button", { name: /Machine translate/ }).count()) === 0, "the button is gone");
  await h.checkA11y("translation without machine translation");
  await page.goto(`${h.base}/entries/${entry.json.id}/translations`);
  await page.locator('li[data-add-language="de"]').waitFor();
  expect((await page.getByRole("button", { name: /by machine translation/ }).count()) === 0,
    "no machine translation offered when adding a language");
}
