// Trust administration on a fresh tenant, as its owner: register an app,
// mint a key (shown once, copied, used to evaluate), regenerate it (the old
// secret is refused), a tenant API key, the decision in the ledger with its
// reasons and the chain verified, a report as table, chart, CSV and JSON,
// a policy what-if (a hub without AI retrieval moves allow → block, an
// example opens in the ledger), a scanner finding dismissed, a git connector synced with progress and a
// push connector's document, a web connector's write-only credential set,
// replaced and removed, and a policy form's field error.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export async function run(h) {
  const { page, base, step, expect } = h;

  const tenantId = await h.newTenant("Trust Journey");
  const admin = await h.tokenFor("admin", tenantId);

  step("seed a hub and a draft entry holding a fake AWS access key id");
  let r = await h.api("POST", "/api/hubs", { key: "ops", name: "Operations", defaultExpiryDays: 365 }, admin);
  expect(r.status === 201, `POST /api/hubs: ${r.status} ${JSON.stringify(r.json)}`);
  const doc = {
    type: "doc",
    content: [
      { type: "heading", attrs: { level: 1, blockId: "6f1f6a38-3c1b-4a57-9d3e-2f1f7d1f0a01" }, content: [{ type: "text", text: "Deploy notes" }] },
      {
        type: "paragraph",
        attrs: { blockId: "6f1f6a38-3c1b-4a57-9d3e-2f1f7d1f0a02" },
        content: [{ type: "text", text: "The deploy user's key id is AKIAZ7QW3RTY5UIOP2LK for now." }],
      },
    ],
  };
  r = await h.api("POST", "/api/entries", { hubKey: "ops", key: "deploy-notes", originalLanguage: "en", title: "Deploy notes", content: JSON.stringify(doc) }, admin);
  expect(r.status === 201, `POST /api/entries: ${r.status} ${JSON.stringify(r.json)}`);
  const entryId = r.json.id;

  step("the apps page is empty, then an app is registered through the form");
  await h.signIn("admin", tenantId, "/trust/apps");
  await page.getByRole("heading", { name: "AI apps and their keys" }).waitFor();
  await page.locator(".empty-state", { hasText: "No apps yet" }).waitFor();
  await h.checkA11y("trust apps (empty)");
  await page.getByRole("button", { name: "Register an app" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Support bot");
  await page.getByLabel("Channel", { exact: true }).fill("employee_chat");
  await page.getByLabel("Risk").selectOption("high");
  await h.checkA11y("trust register app");
  await page.getByRole("button", { name: "Register", exact: true }).click();
  await page.getByRole("heading", { name: "Support bot" }).waitFor();
  r = await h.api("GET", "/trust-admin/apps", undefined, admin);
  const app = r.json.items.find((a) => a.name === "Support bot");
  expect(app && app.channel === "employee_chat" && app.risk === "high", `stored app: ${JSON.stringify(r.json)}`);
  expect(page.url().endsWith(`/trust/apps/${app.id}`), `app page url: ${page.url()}`);
  await page.locator(".empty-state", { hasText: "No keys yet" }).waitFor();

  step("mint a key: the secret is shown once, with a copy button and the warning");
  await h.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  await page.getByLabel("Key name").fill("production");
  expect((await page.getByLabel("Expires on").inputValue()).length === 10, "the expiry date is filled in");
  await page.getByRole("button", { name: "Mint a key" }).click();
  const secretBox = page.locator("[data-secret-once]");
  await secretBox.waitFor();
  await secretBox.getByText("you will not see it again").waitFor();
  const secret1 = (await secretBox.locator("[data-secret]").innerText()).trim();
  expect(/^crd_sk_/.test(secret1), `secret shown: ${secret1}`);
  await secretBox.getByRole("button", { name: "Copy secret" }).click();
  await secretBox.getByRole("button", { name: "Copied", exact: true }).waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied === secret1, `clipboard holds the secret: ${copied}`);
  await page.locator('tr[data-key-name="production"][data-key-status="enabled"]').waitFor();
  await h.checkA11y("trust app keys (secret shown)");
  await h.screenshot("trust-app-keys");

  step("the minted key works: evaluate with it puts a decision in the ledger");
  r = await h.api("POST", "/api/trust/evaluate", { sources: [`entry:${entryId}`], context: { channel: "employee_chat", actorLabel: "e2e" } }, secret1);
  expect(r.status === 200 && r.json.decisionId, `evaluate with the app key: ${r.status} ${JSON.stringify(r.json)}`);
  const decisionId = r.json.decisionId;
  const reasonCodes = r.json.results[0].reasons.map((x) => x.code);
  expect(reasonCodes.includes("not_published"), `reasons: ${reasonCodes}`);

  step("the secret is gone once dismissed and after a reload");
  await secretBox.getByRole("button", { name: "I have copied it" }).click();
  await secretBox.waitFor({ state: "detached" });
  await page.reload();
  await page.getByRole("heading", { name: "Support bot" }).waitFor();
  await page.locator('tr[data-key-name="production"]').waitFor();
  expect((await page.locator("[data-secret]").count()) === 0, "no secret after a reload");
  expect(!(await page.content()).includes(secret1), "the page never shows the secret again");

  step("regenerate (confirmed): a new secret once; the old one is refused");
  await page.locator('tr[data-key-name="production"]').getByRole("button", { name: "Regenerate" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByText("the old one stops working at once").waitFor();
  await h.checkA11y("trust regenerate dialog");
  await dialog.getByRole("button", { name: "Regenerate" }).click();
  await secretBox.waitFor();
  const secret2 = (await secretBox.locator("[data-secret]").innerText()).trim();
  expect(/^crd_sk_/.test(secret2) && secret2 !== secret1, "a new secret is shown");
  r = await h.api("POST", "/api/trust/evaluate", { sources: [`entry:${entryId}`], context: { channel: "employee_chat" } }, secret1);
  expect(r.status === 401, `the old secret is refused: ${r.status}`);
  r = await h.api("POST", "/api/trust/evaluate", { sources: [`entry:${entryId}`], context: { channel: "employee_chat" } }, secret2);
  expect(r.status === 200, `the new secret works: ${r.status}`);
  await secretBox.getByRole("button", { name: "I have copied it" }).click();

  step("disable and enable the key");
  await page.locator('tr[data-key-name="production"]').getByRole("button", { name: "Disable production" }).click();
  await page.locator('tr[data-key-name="production"][data-key-status="disabled"]').waitFor();
  r = await h.api("POST", "/api/trust/evaluate", { sources: [`entry:${entryId}`] }, secret2);
  expect(r.status === 401, `a disabled key is refused: ${r.status}`);
  await page.locator('tr[data-key-name="production"]').getByRole("button", { name: "Enable production" }).click();
  await page.locator('tr[data-key-name="production"][data-key-status="enabled"]').waitFor();

  step("the app's stats count its decisions and the key's requests");
  await page.reload();
  await page.locator('[data-count="decisions"]', { hasText: "2" }).waitFor();
  await page.locator('tr[data-volume-key="production"] td', { hasText: /^2$/ }).waitFor();
  await h.checkA11y("trust app stats");

  step("the app's AI Act records download as JSON Lines, covered by a signed checkpoint");
  r = await h.api("POST", "/dev/jobs/run", undefined, admin);  // a checkpoint covers the decisions
  expect(r.status === 200 || r.status === 204, `POST /dev/jobs/run: ${r.status}`);
  const records = page.locator("[data-app-records]");
  const [recordsDownload] = await Promise.all([
    page.waitForEvent("download"),
    records.getByRole("button", { name: "Download JSON Lines" }).click(),
  ]);
  expect(new RegExp(`^credence-app-${app.id}-records-\\d{4}-\\d\\d-\\d\\d-to-\\d{4}-\\d\\d-\\d\\d\\.jsonl$`).test(recordsDownload.suggestedFilename()),
    `records file name: ${recordsDownload.suggestedFilename()}`);
  const recordLines = readFileSync(await recordsDownload.path(), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  expect(recordLines[0].type === "cover" && recordLines[0].app.id === app.id && recordLines[0].counts.decisions === 2,
    `records cover: ${JSON.stringify(recordLines[0]).slice(0, 300)}`);
  expect(recordLines.filter((l) => l.type === "decision").length === 2 && recordLines.at(-1).type === "checkpoint",
    `records lines: ${recordLines.map((l) => l.type).join(",")}`);
  await records.getByText(/Downloaded credence-app-/).waitFor();

  step("edit the app: its risk and a field of its default policy");
  await page.getByRole("button", { name: "Edit app" }).click();
  const editForm = page.getByRole("form", { name: "Edit app" });
  await editForm.getByLabel("Risk").selectOption("critical");
  await editForm.locator("summary", { hasText: "Default policy" }).click();
  await editForm.getByLabel("Citation required").selectOption("true");
  await h.checkA11y("trust edit app");
  await editForm.getByRole("button", { name: "Save app" }).click();
  await page.locator("dl.facts dd", { hasText: "Critical" }).waitFor();
  r = await h.api("GET", `/trust-admin/apps/${app.id}`, undefined, admin);
  expect(r.json.risk === "critical" && r.json.defaultPolicy.citationRequired === true, `edited app: ${JSON.stringify(r.json)}`);

  step("a tenant API key: created, shown once, stored; another revoked after confirming");
  await page.goto(`${base}/trust/api-keys`);
  await page.getByRole("heading", { name: "Tenant API keys" }).waitFor();
  await page.locator(".empty-state", { hasText: "No API keys" }).waitFor();
  await h.checkA11y("trust api keys (empty)");
  await page.getByLabel("Key name").fill("ci-bot");
  await page.getByRole("button", { name: "Create API key" }).click();
  await page.locator("[data-secret-once] [data-secret]").waitFor();
  const apiSecret = (await page.locator("[data-secret-once] [data-secret]").innerText()).trim();
  await page.locator('tr[data-apikey-name="ci-bot"]').waitFor();
  r = await h.api("GET", "/api/apikeys", undefined, admin);
  const ciKey = r.json.find((k) => k.name === "ci-bot");
  expect(ciKey && ciKey.scopes.includes("trust:evaluate"), `stored key: ${JSON.stringify(r.json)}`);
  r = await h.api("GET", "/api/trust/whoami", undefined, apiSecret);
  expect(r.status === 200, `the tenant key authenticates: ${r.status}`);
  await h.checkA11y("trust api keys");
  await page.getByRole("button", { name: "I have copied it" }).click();
  await page.getByLabel("Key name").fill("old-bot");
  await page.getByRole("button", { name: "Create API key" }).click();
  await page.locator('tr[data-apikey-name="old-bot"]').waitFor();
  await page.locator('tr[data-apikey-name="old-bot"]').getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
  await page.locator('tr[data-apikey-name="old-bot"]').waitFor({ state: "detached" });
  r = await h.api("GET", "/api/apikeys", undefined, admin);
  expect(!r.json.some((k) => k.name === "old-bot") && r.json.some((k) => k.name === "ci-bot"), `after revoking: ${JSON.stringify(r.json)}`);

  step("the ledger: the decision with its reasons, then the chain verified");
  await page.goto(`${base}/trust/ledger`);
  await page.getByRole("heading", { name: "Decision ledger" }).waitFor();
  await h.checkA11y("trust ledger");
  step("the ledger lists the decision; the block filter keeps it, the allow filter drops it");
  const line = page.locator(`tr[data-decision-id="${decisionId}"]`);
  await line.waitFor();
  await page.getByLabel("Overall decision").selectOption("allow");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await line.waitFor({ state: "detached" });
  await page.getByLabel("Overall decision").selectOption("block");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await line.waitFor();
  await line.getByRole("link").click();
  await page.getByRole("heading", { name: "Decision", exact: true }).waitFor();
  const source = page.locator(`section[data-source-id="entry:${entryId}"]`);
  await source.waitFor();
  expect((await source.getAttribute("data-verdict")) === "block", "the source was blocked");
  await source.locator('[data-reason-code="not_published"]').waitFor();
  await page.getByRole("link", { name: "Support bot" }).waitFor();
  await h.checkA11y("trust decision");
  await h.screenshot("trust-decision");
  await page.getByRole("link", { name: "← Decision ledger" }).click();
  await page.locator(`tr[data-decision-id="${decisionId}"]`).waitFor();
  await page.getByRole("button", { name: "Verify chain" }).click();
  const verdict = page.locator("[data-verification]");
  await verdict.waitFor();
  expect((await verdict.getAttribute("data-verification")) === "verified", `verification: ${await verdict.innerText()}`);
  await verdict.getByText("Verified: the chain is intact.").waitFor();
  await h.checkA11y("trust ledger verified");
  await h.screenshot("trust-ledger");

  step("policy what-if: decisions on a published, reviewed entry of the ops hub");
  const handover = {
    type: "doc",
    content: [
      { type: "heading", attrs: { level: 1, blockId: "6f1f6a38-3c1b-4a57-9d3e-2f1f7d1f0b01" }, content: [{ type: "text", text: "Handover checklist" }] },
      { type: "paragraph", attrs: { blockId: "6f1f6a38-3c1b-4a57-9d3e-2f1f7d1f0b02" }, content: [{ type: "text", text: "Hand the pager over at 9:00." }] },
    ],
  };
  r = await h.api("POST", "/api/entries", { hubKey: "ops", key: "handover", originalLanguage: "en", title: "Handover checklist", content: JSON.stringify(handover) }, admin);
  expect(r.status === 201, `POST /api/entries (handover): ${r.status} ${JSON.stringify(r.json)}`);
  const handoverId = r.json.id;
  r = await h.api("POST", `/api/entries/${handoverId}/publish`, {}, admin);
  expect(r.status === 200, `publish: ${r.status} ${JSON.stringify(r.json)}`);
  r = await h.api("POST", `/api/entries/${handoverId}/review`, { reviewType: "FullReview", timeSpentSeconds: 60 }, admin);
  expect(r.status === 200, `review: ${r.status} ${JSON.stringify(r.json)}`);
  for (let i = 0; i < 2; i++) {
    r = await h.api("POST", "/api/trust/evaluate", { sources: [`entry:${handoverId}`], context: { channel: "internal" } }, admin);
    expect(r.status === 200 && r.json.overallDecision === "allow", `evaluate the handover: ${r.status} ${JSON.stringify(r.json)}`);
  }

  step("policy what-if: the ops hub without AI retrieval would block them; the example opens in the ledger; nothing is written");
  await page.goto(`${base}/trust/policies`);
  await page.getByRole("link", { name: "Try a change on past decisions first" }).click();
  await page.getByRole("heading", { name: "Policy what-if" }).waitFor();
  expect((await page.getByRole("button", { name: "Run the what-if" }).isDisabled()), "nothing to run without a change");
  await h.checkA11y("trust what-if (empty)");
  const composer = page.locator("[data-what-if-composer]");
  await composer.getByLabel("What to change").selectOption("hub-policy");
  await composer.getByLabel("Hub", { exact: true }).selectOption("ops");
  const whatIfEditor = composer.locator('form[data-policy-editor="what-if"]');
  await whatIfEditor.waitFor();
  await whatIfEditor.getByLabel("AI may retrieve").selectOption("false");
  await h.checkA11y("trust what-if composing");
  await whatIfEditor.getByRole("button", { name: "Add to the changes" }).click();
  await whatIfEditor.getByText("Added to the changes.").waitFor();
  await page.locator('[data-what-if-changes] li[data-change-target="hub-policy"]', { hasText: "AI may retrieve: No" }).waitFor();
  await page.getByRole("button", { name: "Run the what-if" }).click();
  const whatIf = page.locator("[data-what-if-result]");
  await whatIf.waitFor();
  const allowToBlock = whatIf.locator('table[data-moves="decisions"] tr[data-move="allow-block"] td[data-count]');
  await allowToBlock.waitFor();
  expect(Number(await allowToBlock.innerText()) >= 2, `allow → block: ${await allowToBlock.innerText()}`);
  await whatIf.locator("[data-what-if-summary]", { hasText: "would change" }).waitFor();
  await whatIf.locator('[data-reasons="appearing"] tr[data-reason-code]').first().waitFor();
  // Oldest first: the draft's decisions (blocked already, now with one more reason), then the handover's.
  const exampleLink = whatIf
    .locator(`[data-what-if-examples] tr[data-example]:has(li[data-source-id="entry:${handoverId}"])`)
    .first()
    .locator('a[href^="/trust/ledger/"]');
  await exampleLink.waitFor();
  const exampleHref = await exampleLink.getAttribute("href");
  await h.checkA11y("trust what-if result");
  await whatIf.evaluate((section) => section.scrollIntoView()); // the picture shows the answer
  await h.screenshot("trust-what-if");
  await exampleLink.click();
  await page.getByRole("heading", { name: "Decision", exact: true }).waitFor();
  expect(page.url().endsWith(exampleHref), `the example opens its decision: ${page.url()}`);
  await page.locator(`section[data-source-id="entry:${handoverId}"]`).waitFor();
  r = await h.api("GET", "/trust-admin/policies/hubs/ops", undefined, admin);
  expect(r.status === 200 && r.json.policy?.aiRetrievable === undefined, `the hub policy is untouched: ${JSON.stringify(r.json)}`);

  step("a report as a table and a chart, downloaded as CSV and JSON");
  r = await h.api("POST", "/dev/jobs/run", undefined, admin);
  expect(r.status === 200 || r.status === 204, `POST /dev/jobs/run: ${r.status}`);
  await page.goto(`${base}/trust/reports`);
  await page.getByRole("heading", { name: "Compliance reports" }).waitFor();
  await page.getByLabel("Report", { exact: true }).selectOption("docs-blocked");
  await page.getByLabel("App (optional)").selectOption({ label: "Support bot" });
  await h.checkA11y("trust reports");
  await page.getByRole("button", { name: "Run report" }).click();
  const report = page.locator('section[data-report="docs-blocked"]');
  await report.waitFor();
  await report.locator("table.report-table td", { hasText: "not_published" }).first().waitFor();
  const bar = report.locator('.bar-chart g.bar[data-label="not_published"]');
  await bar.waitFor();
  expect(Number(await bar.getAttribute("data-value")) >= 2, `bar value: ${await bar.getAttribute("data-value")}`);
  expect(Number(await bar.locator("rect").getAttribute("width")) > 0, "the bar has a width");
  await h.checkA11y("trust report");
  await h.screenshot("trust-reports");
  const [csvDownload] = await Promise.all([page.waitForEvent("download"), report.getByRole("button", { name: "Download CSV" }).click()]);
  expect(/^credence-docs-blocked-\d{4}-\d\d-\d\d-to-\d{4}-\d\d-\d\d-app-[0-9a-f-]+\.csv$/.test(csvDownload.suggestedFilename()), `csv name: ${csvDownload.suggestedFilename()}`);
  const csv = readFileSync(await csvDownload.path(), "utf8");
  const csvLines = csv.split("\r\n");
  expect(csvLines[0].startsWith("appId,appName,reasonCode,dimension,sourceId"), `csv header: ${csvLines[0]}`);
  expect(csvLines.some((l) => l.includes("Support bot") && l.includes("not_published") && l.includes("Deploy notes")), `csv rows:\n${csv}`);
  await report.getByText(/Downloaded credence-docs-blocked/).waitFor();
  const [jsonDownload] = await Promise.all([page.waitForEvent("download"), report.getByRole("button", { name: "Download JSON" }).click()]);
  expect(jsonDownload.suggestedFilename().endsWith(".json"), `json name: ${jsonDownload.suggestedFilename()}`);
  const json = JSON.parse(readFileSync(await jsonDownload.path(), "utf8"));
  expect(json.key === "docs-blocked" && json.appId === app.id && json.rows.length >= 1, `json: ${JSON.stringify(json).slice(0, 300)}`);

  await page.reload();
  await page.locator('section[data-report="docs-blocked"] .bar-chart g.bar[data-label="not_published"]').waitFor();
  expect(page.url().includes(`appId=${app.id}`), `the report's URL names it: ${page.url()}`);

  step("the scanner's finding in the entry: seen, dismissed, then filtered");
  await page.goto(`${base}/trust/findings`);
  await page.getByRole("heading", { name: "Scanner findings" }).waitFor();
  const finding = page.locator(`tr[data-finding-detector="aws_access_key"][data-finding-source="entry:${entryId}"]`);
  await finding.waitFor();
  expect((await finding.getAttribute("data-finding-status")) === "active", "the finding is active");
  expect(!(await page.content()).includes("AKIAZ7QW3RTY5UIOP2LK"), "the matched text is never shown");
  await h.checkA11y("trust findings");
  await h.screenshot("trust-findings");
  await finding.getByRole("button", { name: "Dismiss" }).click();
  await page.getByRole("dialog").getByLabel("Reason (optional)").fill("rotated test key");
  await page.getByRole("dialog").getByRole("button", { name: "Dismiss" }).click();
  await page.locator('tr[data-finding-detector="aws_access_key"][data-finding-status="dismissed"]').waitFor();
  r = await h.api("GET", "/trust-admin/findings?status=dismissed", undefined, admin);
  expect(r.json.findings.length === 1 && r.json.findings[0].dismissReason === "rotated test key", `dismissed: ${JSON.stringify(r.json)}`);
  await page.getByLabel("Status", { exact: true }).selectOption("active");
  await page.locator(".empty-state", { hasText: "No findings match these filters" }).waitFor();
  expect(page.url().includes("status=active"), `filter in the URL: ${page.url()}`);
  await page.getByLabel("Status", { exact: true }).selectOption("dismissed");
  await page.locator('tr[data-finding-status="dismissed"]').getByRole("button", { name: "Restore" }).click();
  await page.locator(".empty-state", { hasText: "No findings match these filters" }).waitFor();
  r = await h.api("GET", "/trust-admin/findings?status=active", undefined, admin);
  expect(r.json.findings.length === 1, `restored: ${JSON.stringify(r.json)}`);

  step("auto-scan off and on, and a rescan with progress");
  const auto = page.getByLabel("Scan entries and documents automatically");
  await auto.click();
  await page.getByText("Off: nothing is scanned").waitFor();
  r = await h.api("GET", "/trust-admin/scanning", undefined, admin);
  expect(r.json.autoScan === false, "auto-scan stored off");
  await auto.click();
  await page.getByText("On: every save and sync is scanned").waitFor();
  await page.getByRole("button", { name: "Rescan everything" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Rescan everything" }).click();
  await page.getByText("2 entries scanned.").waitFor(); // the draft and the what-if step's handover

  step("a git connector synced from a local repository, with progress until it finishes");
  const repo = mkdtempSync(join(tmpdir(), "credence-trust-git-"));
  try {
    const git = (...args) => execFileSync("git", ["-C", repo, ...args], { stdio: "pipe" });
    git("init", "-q", "-b", "main");
    writeFileSync(join(repo, "refunds.md"), "# Refund policy\n\nRefunds within 30 days.\n");
    writeFileSync(join(repo, "shipping.md"), "# Shipping\n\nWe ship worldwide.\n");
    git("add", ".");
    git("-c", "user.name=E2E", "-c", "user.email=e2e@credence.test", "commit", "-q", "-m", "docs");

    await page.goto(`${base}/trust/connectors`);
    await page.getByRole("heading", { name: "Connectors", exact: true }).waitFor();
    await page.locator(".empty-state", { hasText: "No connectors yet" }).waitFor();
    await h.checkA11y("trust connectors (empty)");
    await page.getByRole("button", { name: "Create a connector" }).click();
    await page.getByLabel("Kind", { exact: true }).selectOption("git");
    await page.getByLabel("Key", { exact: true }).fill("Bad Key");
    await page.getByLabel("Repository URL or local path").fill(repo);
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await page.locator(".field-error").first().waitFor();
    await h.checkA11y("trust connector form errors");
    await page.getByLabel("Key", { exact: true }).fill("handbook");
    await page.getByLabel("Name", { exact: true }).fill("Handbook repo");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await page.getByRole("heading", { name: "Handbook repo" }).waitFor();
    await page.getByRole("button", { name: "Sync now" }).click();
    await page.locator("[data-sync-progress] progress").waitFor();
    r = await h.api("POST", "/dev/connectors/run", undefined, admin);
    expect(r.status === 200 || r.status === 204, `POST /dev/connectors/run: ${r.status}`);
    await page.locator('[data-sync-result="succeeded"]').waitFor();
    await page.locator('dl[data-connector-status="succeeded"] [data-documents]', { hasText: "2" }).waitFor();
    await page.locator('tr[data-document-external-id="refunds.md"]', { hasText: "Refund policy" }).waitFor();
    await h.checkA11y("trust connector synced");
    await h.screenshot("trust-connector");
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }

  step("a push connector with a document pushed by its bound key");
  await page.goto(`${base}/trust/connectors`);
  await page.getByRole("button", { name: "Create a connector" }).click();
  await page.getByLabel("Kind", { exact: true }).selectOption("push");
  await page.getByLabel("Key", { exact: true }).fill("crm");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await page.getByRole("heading", { name: "Pushing documents" }).waitFor();
  const pushConnectorId = page.url().split("/").pop();
  r = await h.api("POST", "/api/apikeys", { name: "crm-push", scopes: ["connector:push"], connectorId: pushConnectorId }, admin);
  expect(r.status === 201, `push key: ${r.status} ${JSON.stringify(r.json)}`);
  r = await h.api("PUT", "/api/connectors/crm/documents?externalId=kb%2F42", { title: "Warranty terms", content: "Two years on every device." }, r.json.clientSecret);
  expect(r.status === 201, `push: ${r.status} ${JSON.stringify(r.json)}`);
  await page.reload();
  await page.locator('tr[data-document-external-id="kb/42"]', { hasText: "Warranty terms" }).waitFor();
  await page.locator("dl[data-connector-status] [data-documents]", { hasText: "1" }).waitFor();
  await h.checkA11y("trust push connector");
  await page.goto(`${base}/trust/connectors`);
  await page.locator('tr[data-connector-key="handbook"] [data-documents]', { hasText: "2" }).waitFor();
  await page.locator('tr[data-connector-key="crm"] [data-documents]', { hasText: "1" }).waitFor();
  await h.checkA11y("trust connectors");

  step("a web connector with a credential: set in the form, shown only as set, replaced, removed");
  const token = "intranet-token-4f9c2a7e";
  const headerSecret = "hdr-secret-b81d0c55";
  await page.goto(`${base}/trust/connectors`);
  await page.getByRole("button", { name: "Create a connector" }).click();
  await page.getByLabel("Kind", { exact: true }).selectOption("web");
  await page.getByLabel("Key", { exact: true }).fill("intranet");
  await page.getByLabel("Name", { exact: true }).fill("Intranet");
  await page.getByLabel("Start URLs (one per line)").fill("https://intranet.example/handbook/");
  await page.getByLabel("Credential kind").selectOption("bearer");
  const tokenInput = page.getByLabel("Token", { exact: true });
  expect((await tokenInput.getAttribute("type")) === "password", "the token is a password input");
  await tokenInput.fill(token);
  await h.checkA11y("trust connector form with a credential");
  await h.screenshot("trust-connector-credential-form");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await page.getByRole("heading", { name: "Intranet" }).waitFor();
  const credentialPanel = page.locator("[data-connector-credential]");
  await credentialPanel.locator('[data-credential="set"]', { hasText: "Bearer token" }).waitFor();
  const intranetId = page.url().split("/").pop();
  r = await h.api("GET", `/trust-admin/connectors/${intranetId}`, undefined, admin);
  expect(r.json.credential.set === true && r.json.credential.kind === "bearer", `credential view: ${JSON.stringify(r.json.credential)}`);
  expect(!JSON.stringify(r.json).includes(token), "the API never answers the token");
  expect(!(await page.content()).includes(token), "the page never holds the token");
  await h.checkA11y("trust connector credential set");
  await h.screenshot("trust-connector-credential");

  await credentialPanel.getByRole("button", { name: "Replace credential" }).click();
  await credentialPanel.getByLabel("Credential kind").selectOption("header");
  expect((await credentialPanel.getByLabel("Header value").inputValue()) === "", "the secret is never prefilled");
  await credentialPanel.getByLabel("Header name").fill("Host");
  await credentialPanel.getByLabel("Header value").fill(headerSecret);
  await credentialPanel.getByRole("button", { name: "Save credential" }).click();
  await credentialPanel.locator(".field-error").first().waitFor();  // Host is the crawler's own header
  await h.checkA11y("trust connector credential error");
  await credentialPanel.getByLabel("Header name").fill("X-Api-Key");
  await credentialPanel.getByRole("button", { name: "Save credential" }).click();
  await credentialPanel.getByText("Credential saved.").waitFor();
  await credentialPanel.locator('[data-credential="set"]', { hasText: "X-Api-Key" }).waitFor();
  r = await h.api("GET", `/trust-admin/connectors/${intranetId}`, undefined, admin);
  expect(r.json.credential.kind === "header" && r.json.credential.headerName === "X-Api-Key", `credential view: ${JSON.stringify(r.json.credential)}`);
  expect(r.json.settings.startUrls[0] === "https://intranet.example/handbook/", `settings kept: ${JSON.stringify(r.json.settings)}`);
  expect(!JSON.stringify(r.json).includes(headerSecret) && !(await page.content()).includes(headerSecret), "the header value is never shown");

  await credentialPanel.getByRole("button", { name: "Remove credential" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove credential" }).click();
  await credentialPanel.locator('[data-credential="not-set"]').waitFor();
  await credentialPanel.getByRole("button", { name: "Set credential" }).waitFor();
  r = await h.api("GET", `/trust-admin/connectors/${intranetId}`, undefined, admin);
  expect(r.json.credential.set === false, `credential removed: ${JSON.stringify(r.json.credential)}`);

  step("policies: a field error from the server, then a saved tenant policy");
  await page.goto(`${base}/trust/policies`);
  await page.getByRole("heading", { name: "Trust policies and sensitivity" }).waitFor();
  const tenantForm = page.locator('form[data-policy-editor="tenant"]');
  await tenantForm.getByLabel("Warn days before expiry").fill("99999");
  await tenantForm.getByRole("button", { name: "Save policy" }).click();
  await tenantForm.locator(".field-error", { hasText: "3650" }).waitFor();
  await h.checkA11y("trust policies (field error)");
  await tenantForm.getByLabel("Warn days before expiry").fill("30");
  await tenantForm.getByLabel("Internal only").selectOption("true");
  await tenantForm.getByRole("button", { name: "Save policy" }).click();
  await tenantForm.getByText("Saved.").waitFor();
  r = await h.api("GET", "/trust-admin/policies/tenant", undefined, admin);
  expect(r.json.policy.warnBeforeExpiryDays === 30 && r.json.policy.internalOnly === true, `tenant policy: ${JSON.stringify(r.json.policy)}`);
  await page.locator('form[data-policy-editor="tenant"] [data-effective="internalOnly"]', { hasText: "Yes" }).waitFor();
  const sensitivity = page.locator("#sensitivity");
  await sensitivity.getByLabel("Source id").fill(`entry:${entryId}`);
  await sensitivity.getByRole("button", { name: "Open" }).click();
  await sensitivity.getByText("the content scanner").first().waitFor(); // one line per fact the scanner set
  await sensitivity.getByLabel("Classification").selectOption("Confidential");
  await sensitivity.getByRole("button", { name: "Save sensitivity" }).click();
  await sensitivity.getByText("an administrator").first().waitFor();
  r = await h.api("GET", `/trust-admin/sensitivity?sourceId=${encodeURIComponent(`entry:${entryId}`)}`, undefined, admin);
  expect(r.json.classification === "Confidential" && r.json.setBy === "human", `sensitivity: ${JSON.stringify(r.json)}`);
  await h.checkA11y("trust policies");
  await h.screenshot("trust-policies");

  step("the apps list shows the app; a viewer gets no trust links");
  await page.goto(`${base}/trust/apps`);
  await page.locator('tr[data-app-name="Support bot"]').waitFor();
  await h.screenshot("trust-apps");
  await h.signIn("viewer", tenantId, "/hubs");
  await page.getByRole("heading", { name: "Hubs" }).waitFor();
  expect((await page.getByRole("link", { name: "Apps and keys" }).count()) === 0, "no trust links for a viewer");
}
