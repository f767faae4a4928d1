// Authoring on a fresh tenant: create a hub in the UI (and see a duplicate
// key refused), configure it (expiry template, a member and its role), write
// an entry with a heading, a paragraph and a table, publish it; with a
// Spanish translation added through the API, change one block of the
// original in the editor and see exactly that block of the translation
// marked stale with the changed words; review with the checklist, renew, and
// see the expiry change; transfer ownership; see a content rule stop a
// publish with its message; delete an entry through the confirmation dialog.
export async function run(h) {
  const { page, step, expect } = h;
  const tenantId = await h.newTenant("KB authoring");
  const admin = await h.tokenFor("admin", tenantId);
  const users = (await h.api("GET", "/api/users", undefined, admin)).json;
  const editorUser = users.find((u) => u.email.startsWith("editor"));
  expect(editorUser, `no editor persona among ${JSON.stringify(users)}`);

  step("the hubs page of a new tenant says what to do; create a hub");
  await h.signIn("admin", tenantId, "/hubs");
  await page.getByRole("heading", { name: "Hubs", level: 1 }).waitFor();
  await page.getByText("No hubs yet. Create the first one below.").waitFor();
  await h.checkA11y("hubs (empty)");
  await h.screenshot("kb-hubs");
  await page.getByLabel("Name").fill("Field Guide");
  await page.getByLabel("Key").fill("field-guide");
  await page.getByLabel("Default expiry (days)").fill("90");
  await page.getByRole("button", { name: "Create hub" }).click();
  await page.getByRole("heading", { name: "Field Guide", level: 1 }).waitFor();
  await page.getByText("No entries in this hub yet.", { exact: false }).waitFor();
  await h.checkA11y("hub (empty)");
  const hub = (await h.api("GET", "/api/hubs/field-guide", undefined, admin)).json;
  expect(hub.name === "Field Guide" && hub.defaultExpiryDays === 90, `hub as stored: ${JSON.stringify(hub)}`);

  step("a second hub with the same key is refused with the server's 409");
  await page.goto(`${h.base}/hubs`);
  await page.locator('li[data-hub-key="field-guide"]').waitFor();
  await page.getByLabel("Name").fill("Duplicate");
  await page.getByLabel("Key").fill("field-guide");
  await page.getByRole("button", { name: "Create hub" }).click();
  const conflict = await page.locator('[role="alert"]').innerText();
  expect(/\(409\)/.test(conflict), `expected a 409 problem, got: ${conflict}`);
  await h.checkA11y("hubs (409)");

  step("hub settings: the expiry template, a member, a role change");
  const checklist = await h.api("POST", "/api/review-checklists", {
    name: "Field check",
    hubId: hub.id,
    items: [{ text: "Facts checked against the source", required: true }, { text: "Links still work", required: true }],
  }, admin);
  expect(checklist.status === 201, `POST review-checklists: ${checklist.status} ${JSON.stringify(checklist.json)}`);
  const template = await h.api("POST", "/api/expiry-templates", {
    name: "Reviewed yearly", expiryDays: 365, warningDays: 30, graceDays: 7, reviewRequired: false,
    reviewType: "QuickReview", checklistId: checklist.json.id, isActive: true,
  }, admin);
  expect(template.status === 201, `POST expiry-templates: ${template.status} ${JSON.stringify(template.json)}`);
  await page.goto(`${h.base}/hubs/field-guide`);
  await page.getByRole("link", { name: "Hub settings" }).click();
  await page.getByRole("heading", { name: "Settings: Field Guide" }).waitFor();
  await page.getByText("Nobody has a role in this hub yet.", { exact: false }).waitFor();
  await page.getByLabel("Default expiry template").selectOption({ label: "Reviewed yearly (365 days)" });
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText("Saved.").waitFor();
  const configured = (await h.api("GET", "/api/hubs/field-guide", undefined, admin)).json;
  expect(configured.defaultExpiryTemplateId === template.json.id && configured.defaultExpiryDays === 90,
    `hub after settings: ${JSON.stringify(configured)}`);
  await page.getByLabel("Add a user").selectOption(editorUser.id);
  await page.locator('select[name="addUserRole"]').selectOption("Editor");
  await page.getByRole("button", { name: "Add", exact: true }).first().click();
  const row = page.locator(`tr[data-principal="${editorUser.id}"]`);
  await row.waitFor();
  await row.getByLabel(`Role of ${editorUser.displayName}`).selectOption("Admin");
  await page.waitForFunction(
    (id) => document.querySelector(`tr[data-principal="${id}"] select`)?.value === "Admin" &&
      !document.querySelector(`tr[data-principal="${id}"] select`)?.disabled,
    editorUser.id,
  );
  const members = (await h.api("GET", `/api/hubs/${hub.id}/memberships`, undefined, admin)).json;
  expect(members.length === 1 && members[0].userId === editorUser.id && members[0].role === "Admin",
    `memberships as stored: ${JSON.stringify(members)}`);
  await h.checkA11y("hub settings");
  await h.screenshot("kb-hub-settings");

  step("write an entry with a heading, a paragraph and a table");
  await page.goto(`${h.base}/hubs/field-guide`);
  await page.getByRole("link", { name: "New entry" }).click();
  await page.getByRole("heading", { name: "New entry" }).waitFor();
  await page.locator('input[name="title"]').fill("Travel policy");
  await page.locator(".tiptap").click();
  await page.getByRole("button", { name: "Heading 1" }).click();
  await page.keyboard.type("Meals");
  await page.keyboard.press("Enter");
  await page.keyboard.type("Meals cost 30 EUR per day.");
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "Table", exact: true }).click();
  for (const [i, cell] of ["City", "Limit", "Note", "Madrid", "60 EUR"].entries()) {
    if (i > 0) await page.keyboard.press("Tab");
    await page.keyboard.type(cell);
  }
  await h.checkA11y("editor (new)");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText("Entry created as a draft.").waitFor();
  const entryId = page.url().match(/entries\/([0-9a-f-]{36})\/edit/)?.[1];
  expect(entryId, `expected the editor of the new entry, at ${page.url()}`);
  let stored = (await h.api("GET", `/api/entries/${entryId}`, undefined, admin)).json;
  let doc = JSON.parse(stored.content);
  expect(JSON.stringify(doc.content.map((n) => n.type)) === '["heading","paragraph","table"]',
    `top-level blocks as stored: ${doc.content.map((n) => n.type)}`);
  const ids = doc.content.map((n) => n.attrs?.blockId);
  expect(ids.every(Boolean) && new Set(ids).size === 3, `block ids: ${ids}`);
  expect(JSON.stringify(doc.content[2]).includes("Madrid") && JSON.stringify(doc.content[2]).includes("60 EUR"),
    `the table as stored: ${JSON.stringify(doc.content[2])}`);
  await page.locator(".tiptap table td", { hasText: "Madrid" }).waitFor();
  await h.checkA11y("editor");
  await h.screenshot("kb-editor");

  step("publish it and see it published");
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await page.getByText("Published.", { exact: true }).waitFor();
  await page.locator(".entry-bar .badge", { hasText: "Published" }).waitFor();
  stored = (await h.api("GET", `/api/entries/${entryId}`, undefined, admin)).json;
  expect(stored.status === "Published", `status as stored: ${stored.status}`);
  await page.getByRole("button", { name: "Make it the hub's home" }).click();
  await page.getByText("This entry is now the hub's home page.").waitFor();
  expect((await h.api("GET", "/api/hubs/field-guide", undefined, admin)).json.rootEntryId === entryId, "the hub's root entry");

  step("add a Spanish translation through the API");
  const es = structuredClone(doc);
  es.content[0].content[0].text = "Comidas";
  es.content[1].content[0].text = "Las comidas cuestan 30 EUR al día.";
  const tr = await h.api("POST", `/api/entries/${entryId}/translations/es`, { title: "Política de viajes", content: JSON.stringify(es) }, admin);
  expect(tr.status === 201 && tr.json.status === "UpToDate", `POST translation: ${tr.status} ${JSON.stringify(tr.json)}`);

  step("change one block of the original in the editor");
  await page.reload();
  await page.getByRole("heading", { name: "Edit entry" }).waitFor();
  await page.locator(".tiptap p", { hasText: "Meals cost 30 EUR per day." }).click();
  await caretAtEnd(page, "Meals cost 30 EUR per day.");
  for (let i = 0; i < "30 EUR per day.".length; i++) await page.keyboard.press("Backspace");
  await page.keyboard.type("50 EUR per day.");
  await page.locator(".tiptap p", { hasText: /^Meals cost 50 EUR per day\.$/ }).waitFor();
  await page.getByText("Unsaved changes").waitFor();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText("Saved.", { exact: true }).waitFor();
  stored = (await h.api("GET", `/api/entries/${entryId}`, undefined, admin)).json;
  doc = JSON.parse(stored.content);
  expect(doc.content[1].content[0].text === "Meals cost 50 EUR per day." &&
    JSON.stringify(doc.content.map((n) => n.attrs.blockId)) === JSON.stringify(ids),
    `after the edit: ${stored.content}`);

  step("the reader marks exactly that block of the Spanish translation stale, with the changed words");
  await page.getByRole("link", { name: /Back to the entry/ }).click();
  await page.getByRole("heading", { name: "Travel policy", level: 1 }).waitFor();
  await page.locator('select[name="language"]').selectOption("es");
  await page.getByRole("heading", { name: "Política de viajes", level: 1 }).waitFor();
  const stale = page.locator('section.block[data-stale="true"]');
  await stale.first().waitFor();
  const staleIds = await stale.evaluateAll((els) => els.map((e) => e.getAttribute("data-block-id")));
  expect(staleIds.length === 1 && staleIds[0] === ids[1], `stale blocks: ${JSON.stringify(staleIds)}, expected [${ids[1]}]`);
  const del = await stale.locator(".source-change del").allInnerTexts();
  const ins = await stale.locator(".source-change ins").allInnerTexts();
  expect(del.join("|").trim() === "30" && ins.join("|").trim() === "50", `diff: del ${JSON.stringify(del)} ins ${JSON.stringify(ins)}`);
  await page.getByText("1 of 3 blocks out of date").waitFor();
  await page.locator("section.block td", { hasText: "Madrid" }).waitFor();
  const trust = page.locator(".trust-details");
  await trust.waitFor();
  const decision = await trust.getAttribute("data-trust-decision");
  expect(["allow", "warn", "block"].includes(decision), `trust decision: ${decision}`);
  await trust.locator("summary").click();
  await trust.locator("li[data-reason]").first().waitFor();
  await h.checkA11y("reader");
  await h.screenshot("kb-reader");

  step("review with the checklist, then renew: the expiry badge changes");
  await page.getByRole("link", { name: "Edit", exact: true }).click();
  await page.getByRole("heading", { name: "Edit entry" }).waitFor();
  const badge = page.locator(".entry-bar .badge.expiry");
  await badge.waitFor();
  const before = await badge.getAttribute("data-expiry-days");
  await page.getByRole("button", { name: "Review", exact: true }).click();
  const dialog = page.locator("dialog[open]");
  await dialog.getByRole("heading", { name: "Review this entry" }).waitFor();
  await dialog.getByText("Facts checked against the source").waitFor();
  const submit = dialog.getByRole("button", { name: "Submit review" });
  expect(await submit.isDisabled(), "submit should wait for the required checklist items");
  await h.checkA11y("review dialog");
  await dialog.getByLabel("Facts checked against the source").check();
  await dialog.getByLabel("Links still work").check();
  await submit.click();
  await page.getByText("Review recorded", { exact: false }).waitFor();
  const history = (await h.api("GET", `/api/entries/${entryId}/review-history`, undefined, admin)).json;
  const answers = JSON.parse(history[0]?.checklistJson ?? "{}");
  expect(history.length === 1 && Object.values(answers).length === 2 && Object.values(answers).every((v) => v === true),
    `review as stored: ${JSON.stringify(history)}`);
  await page.getByRole("button", { name: "Renew", exact: true }).click();
  await dialog.getByLabel("Renew for (days from today)").fill("60");
  await h.checkA11y("renew dialog");
  await dialog.getByRole("button", { name: "Renew", exact: true }).click();
  await page.getByText("Renewed: the entry now expires", { exact: false }).waitFor();
  await page.locator('.entry-bar .badge.expiry[data-expiry-days="60"]', { hasText: "Expires in 60 days" }).waitFor();
  expect(before !== "60", `the badge said ${before} days before the renewal`);
  const expiry = (await h.api("GET", `/api/entries/${entryId}/expiry-status`, undefined, admin)).json;
  expect(expiry.daysUntilExpiry >= 59 && expiry.daysUntilExpiry <= 60, `expiry as stored: ${JSON.stringify(expiry)}`);

  step("transfer ownership to the editor");
  await page.getByRole("button", { name: "Transfer ownership" }).click();
  await dialog.getByLabel("New owner").selectOption(editorUser.id);
  await h.checkA11y("transfer dialog");
  await dialog.getByRole("button", { name: "Transfer ownership" }).click();
  await page.getByText(`${editorUser.displayName} now owns this entry.`).waitFor();
  stored = (await h.api("GET", `/api/entries/${entryId}`, undefined, admin)).json;
  expect(stored.ownerId === editorUser.id, `owner as stored: ${stored.ownerId}`);

  step("a content rule stops a publish (of an entry started from an entry template), and the page says why");
  for (const path of ["/api/tenant/plugins/content-rules/install", "/api/tenant/plugins/content-rules/enable"]) {
    const r = await h.api("POST", path, {}, admin);
    expect(r.status === 200 || r.status === 201, `${path}: ${r.status} ${JSON.stringify(r.json)}`);
  }
  const rules = await h.api("PUT", "/api/hubs/field-guide/rules", { isEnabled: true, rulesJson: JSON.stringify({ forbiddenTerms: ["vpn"] }) }, admin);
  expect(rules.status === 200, `PUT rules: ${rules.status} ${JSON.stringify(rules.json)}`);
  const runbook = await h.api("POST", "/api/templates", {
    name: "Runbook",
    category: "Operations",
    blocks: [
      { type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "Summary" }] },
      { type: "paragraph", content: [{ type: "text", text: "What this runbook is for." }] },
    ],
  }, admin);
  expect(runbook.status === 201, `POST templates: ${runbook.status} ${JSON.stringify(runbook.json)}`);
  await page.goto(`${h.base}/hubs/field-guide/new`);
  await page.getByLabel("Start from a template").selectOption({ label: "Runbook (Operations)" });
  await page.getByRole("button", { name: "Use template" }).click();
  await page.locator(".tiptap h2", { hasText: "Summary" }).waitFor();
  await page.locator('input[name="title"]').fill("Remote access");
  await page.locator(".tiptap p", { hasText: "What this runbook is for." }).click();
  await caretAtEnd(page, "What this runbook is for.");
  await page.keyboard.press("Enter");
  await page.keyboard.type("Connect through the VPN first.");
  await page.locator(".tiptap p", { hasText: "Connect through the VPN first." }).waitFor();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText("Entry created as a draft.").waitFor();
  const blockedId = page.url().match(/entries\/([0-9a-f-]{36})\/edit/)?.[1];
  const fromTemplate = JSON.parse((await h.api("GET", `/api/entries/${blockedId}`, undefined, admin)).json.content);
  expect(fromTemplate.content[0].type === "heading" && fromTemplate.content[0].content[0].text === "Summary" &&
    JSON.stringify(fromTemplate).includes("VPN"), `the entry from the template: ${JSON.stringify(fromTemplate)}`);
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  const denied = page.locator('[data-guard-denied="true"]');
  await denied.waitFor();
  const deniedText = await denied.innerText();
  expect(deniedText.includes("The entry uses a forbidden term: vpn."), `denial shown: ${deniedText}`);
  stored = (await h.api("GET", `/api/entries/${blockedId}`, undefined, admin)).json;
  expect(stored.status === "Draft", `a denied publish left status ${stored.status}`);
  await h.checkA11y("editor (publish denied)");

  step("delete that entry through the confirmation dialog and see it gone");
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await dialog.getByRole("heading", { name: "Delete this entry?" }).waitFor();
  await h.checkA11y("delete dialog");
  await dialog.getByRole("button", { name: "Delete entry" }).click();
  await page.getByRole("heading", { name: "Field Guide", level: 1 }).waitFor();
  await page.getByText("“Remote access” was deleted.").waitFor();
  await page.locator('li[data-entry-key="travel-policy"][data-root="true"]').waitFor();
  await page.locator(".root-entry a", { hasText: "Travel policy" }).waitFor();
  expect((await page.locator('li[data-entry-key="remote-access"]').count()) === 0, "the deleted entry is still listed");
  const gone = await h.api("GET", `/api/entries/${blockedId}`, undefined, admin);
  expect(gone.status === 404, `GET the deleted entry: ${gone.status}`);
  await page.locator('li[data-entry-key="travel-policy"] .badge', { hasText: "Published" }).waitFor();
  await page.locator('li[data-entry-key="travel-policy"] .badge.expiry', { hasText: "Expires in 60 days" }).waitFor();
  await h.checkA11y("hub");
  await h.screenshot("kb-hub");

  step("the editor stays responsive on a 200-block entry");
  // Wall time on a shared machine says little alone (ctest runs another suite
  // beside this one), so the same 42 characters are first typed into a
  // two-block entry in the same run: a long document may cost a little more
  // per key, not a multiple. The absolute ceiling catches an editor that is
  // slow whatever the length.
  const paragraphText = (i) => `Paragraph ${i}: the policy applies to every trip booked through the travel desk.`;
  const docOf = (blocks) => ({
    type: "doc",
    content: Array.from({ length: blocks }, (_, i) =>
      i % 20 === 0
        ? { type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: `Section ${i / 20 + 1}` }] }
        : { type: "paragraph", content: [{ type: "text", text: paragraphText(i) }] }),
  });
  const typeTimed = async (label, text) => {
    const started = Date.now();
    await page.keyboard.type(text);
    const ms = Date.now() - started;
    await page.locator(".tiptap p", { hasText: text.trim() }).waitFor();
    console.log(`    typing ${text.length} characters into ${label} took ${ms} ms`);
    return ms;
  };
  const typed = " Typed quickly while the document is long.";
  const small = await h.api("POST", "/api/entries", {
    hubKey: "field-guide", key: "small-entry", originalLanguage: "en", title: "Small entry", content: JSON.stringify(docOf(2)),
  }, admin);
  expect(small.status === 201, `POST a 2-block entry: ${small.status}`);
  await page.goto(`${h.base}/entries/${small.json.id}/edit`);
  await page.locator(".tiptap p", { hasText: "Paragraph 1:" }).click();
  await caretAtEnd(page, paragraphText(1));
  const smallMs = await typeTimed("a 2-block entry", typed);

  const created = await h.api("POST", "/api/entries", {
    hubKey: "field-guide", key: "big-entry", originalLanguage: "en", title: "Big entry", content: JSON.stringify(docOf(200)),
  }, admin);
  expect(created.status === 201, `POST a 200-block entry: ${created.status}`);
  await page.goto(`${h.base}/entries/${created.json.id}/edit`);
  await page.locator(".tiptap p", { hasText: "Paragraph 199:" }).waitFor();
  await page.locator(".tiptap p", { hasText: "Paragraph 101:" }).click();
  await caretAtEnd(page, paragraphText(101));
  const bigMs = await typeTimed("a 200-block entry", typed);
  expect(bigMs < 42 * 250, `typing took ${bigMs} ms for 42 characters in a 200-block entry`);
  expect(bigMs < 42 * 60 || bigMs < smallMs * 2.5,
    `typing into a 200-block entry took ${bigMs} ms, ${(bigMs / smallMs).toFixed(1)} times the ${smallMs} ms of a 2-block entry`);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText("Saved.", { exact: true }).waitFor();
  const bigStored = JSON.parse((await h.api("GET", `/api/entries/${created.json.id}`, undefined, admin)).json.content);
  const bigIds = bigStored.content.map((n) => n.attrs?.blockId);
  const createdIds = JSON.parse(created.json.content).content.map((n) => n.attrs.blockId);
  expect(bigStored.content.length === 200 && JSON.stringify(bigIds) === JSON.stringify(createdIds) &&
    bigStored.content[101].content[0].text.endsWith(typed),
    "the 200-block entry did not save back with its block ids and the typed text");
}

// Puts the caret at the end of the clicked text, and waits until the editor
// has it (ProseMirror takes the selection from the DOM's selectionchange; a
// key it handles itself, Backspace or Enter, uses its own selection).
async function caretAtEnd(page, text) {
  await page.keyboard.press("End");
  await page.waitForFunction((t) => {
    const sel = getSelection();
    return sel?.anchorNode?.textContent === t && sel.anchorOffset === t.length;
  }, text);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}
