// Administration on a fresh tenant as its owner: invite and revoke, a group
// and a member, categories and tags, an expiry template whose deletion is
// refused while a hub uses it, a review checklist, a webhook delivering to a
// local receiver, the audit log filtered by an action prefix; then an editor
// who is refused every admin page with the 403 problem.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";

// A local HTTP receiver (development mode lets webhooks reach loopback).
async function startReceiver() {
  const received = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204);
      res.end();
    });
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${server.address().port}/hook`, received, close: () => server.close() };
}

export async function run(h) {
  const { page, base, step, expect } = h;
  const tenantId = await h.newTenant("Admin journey");
  const admin = await h.tokenFor("admin", tenantId);
  const row = (attr, value) => page.locator(`tr[${attr}="${value}"]`);
  const dialog = () => page.locator("dialog[open]");
  // Most moves stay inside the client, as a user following links does; some
  // steps load a /manage page in full (a reload, a link from elsewhere).
  const go = (path) =>
    page.evaluate((p) => {
      window.history.pushState(null, "", p);
      window.dispatchEvent(new PopStateEvent("popstate"));
    }, path);

  step("the owner opens /admin: every section is listed");
  await h.signIn("admin", tenantId, "/hubs");
  await page.locator('nav.side a[href="/manage"]').click();
  await page.getByRole("heading", { name: "Administration", level: 1 }).waitFor();
  for (const path of ["/manage/users", "/manage/groups", "/manage/webhooks", "/manage/audit", "/manage/expiry-templates"])
    await page.locator(`li[data-section="${path}"] a`).waitFor();
  await h.checkA11y("admin landing");

  step("invite: a malformed email shows the server's field error");
  await page.locator('li[data-section="/manage/users"] a').click();
  await page.getByRole("heading", { name: "Users and invitations" }).waitFor();
  const editorUser = (await h.api("GET", "/api/users", undefined, admin)).json.find((u) => u.displayName === "Eddie Editor");
  await row("data-user-email", editorUser.email).waitFor();
  expect((await row("data-user-email", editorUser.email).innerText()).includes("Member"), "the editor is listed as a Member");
  await page.getByText("No pending invitations").waitFor();
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByRole("button", { name: "Send invitation" }).click();
  await page.locator(".field-error", { hasText: "must be an email address" }).waitFor();
  expect((await page.getByLabel("Email").getAttribute("aria-invalid")) === "true", "the email field is marked invalid");

  step("invite someone as a guest: the invitation is listed and stored");
  await page.getByLabel("Email").fill("new.person@example.com");
  await page.getByLabel("Role", { exact: true }).selectOption("Guest");
  await page.getByRole("button", { name: "Send invitation" }).click();
  const invitation = row("data-invitation-email", "new.person@example.com");
  await invitation.waitFor();
  expect((await invitation.innerText()).includes("Guest"), "the invitation shows its role");
  let pending = (await h.api("GET", "/api/users/invitations?status=Pending", undefined, admin)).json;
  expect(pending.length === 1 && pending[0].email === "new.person@example.com" && pending[0].role === "Guest",
    `pending invitations: ${JSON.stringify(pending)}`);
  await h.checkA11y("users");
  await h.screenshot("admin-users");

  step("revoke it, confirming in a dialog");
  await invitation.getByRole("button", { name: "Revoke" }).click();
  await dialog().getByText("Revoke the invitation sent to new.person@example.com?").waitFor();
  await h.checkA11y("revoke dialog");
  await dialog().getByRole("button", { name: "Revoke" }).click();
  await invitation.waitFor({ state: "detached" });
  pending = (await h.api("GET", "/api/users/invitations?status=Pending", undefined, admin)).json;
  const all = (await h.api("GET", "/api/users/invitations", undefined, admin)).json;
  expect(pending.length === 0 && all.some((i) => i.status === "Revoked"), `after revoking: ${JSON.stringify(all)}`);

  step("remove a member, confirming in a dialog");
  const guestRow = page.locator("tr[data-user-email]", { hasText: "Gus Guest" });
  const guestEmail = await guestRow.getAttribute("data-user-email");
  await guestRow.getByRole("button", { name: `Remove ${guestEmail}` }).click();
  await dialog().getByText(`Remove ${guestEmail} from this tenant?`).waitFor();
  await dialog().getByRole("button", { name: "Remove" }).click();
  await guestRow.waitFor({ state: "detached" });
  const remaining = (await h.api("GET", "/api/users", undefined, admin)).json.map((u) => u.email);
  expect(remaining.length === 3 && !remaining.includes(guestEmail), `users after removing the guest: ${remaining}`);
  expect((await page.locator("tr[data-user-email]", { hasText: "Ada Admin" }).getByRole("button").count()) === 0,
    "the owner cannot remove themselves from the list");

  step("change the editor's role to Guest and back, in the list");
  const editorRole = page.getByLabel(`Role of ${editorUser.email}`);
  await editorRole.selectOption("Guest");
  await page.locator(`tr[data-user-email="${editorUser.email}"] td[data-role="Guest"]`).waitFor();
  let roleNow = (await h.api("GET", "/api/users", undefined, admin)).json.find((u) => u.id === editorUser.id).tenantRole;
  expect(roleNow === "Guest", `the editor's role after the change: ${roleNow}`);
  await editorRole.selectOption("Member");
  await page.locator(`tr[data-user-email="${editorUser.email}"] td[data-role="Member"]`).waitFor();
  roleNow = (await h.api("GET", "/api/users", undefined, admin)).json.find((u) => u.id === editorUser.id).tenantRole;
  expect(roleNow === "Member", `the editor's role after changing it back: ${roleNow}`);

  step("create a group and add the editor to it");
  await go("/manage/groups");
  await page.getByText("No groups yet").waitFor();
  await page.getByRole("button", { name: "New group" }).click();
  await dialog().getByLabel("Name").fill("Reviewers");
  await dialog().getByLabel("Description").fill("People who review policies");
  await h.checkA11y("group form");
  await dialog().getByRole("button", { name: "Save" }).click();
  await row("data-row-name", "Reviewers").waitFor();
  await h.checkA11y("groups");
  await row("data-row-name", "Reviewers").getByRole("link", { name: "Reviewers" }).click();
  await page.getByRole("heading", { name: "Reviewers", level: 1 }).waitFor();
  await page.getByText("This group has no members yet").waitFor();
  await page.getByLabel("User").selectOption(editorUser.id);
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await row("data-member-email", editorUser.email).waitFor();
  await h.checkA11y("group members");
  const group = (await h.api("GET", "/api/groups", undefined, admin)).json.find((g) => g.name === "Reviewers");
  const members = (await h.api("GET", `/api/groups/${group.id}/members`, undefined, admin)).json;
  expect(members.length === 1 && members[0].id === editorUser.id, `group members: ${JSON.stringify(members)}`);

  step("rename a group, then delete another after confirming");
  await go("/manage/groups");
  await page.getByRole("button", { name: "Edit Reviewers" }).click();
  await dialog().getByLabel("Name").fill("Policy reviewers");
  await dialog().getByRole("button", { name: "Save" }).click();
  await row("data-row-name", "Policy reviewers").waitFor();
  await page.getByRole("button", { name: "New group" }).click();
  await dialog().getByLabel("Name").fill("Temporary");
  await dialog().getByRole("button", { name: "Save" }).click();
  await row("data-row-name", "Temporary").waitFor();
  await page.getByRole("button", { name: "Delete Temporary" }).click();
  await dialog().getByRole("button", { name: "Delete" }).click();
  await row("data-row-name", "Temporary").waitFor({ state: "detached" });
  const groupNames = (await h.api("GET", "/api/groups", undefined, admin)).json.map((g) => g.name);
  expect(groupNames.length === 1 && groupNames[0] === "Policy reviewers", `groups: ${groupNames}`);

  step("create a category, and a tag which is then renamed");
  await go("/manage/categories");
  await page.getByText("No categories yet").waitFor();
  await page.getByRole("button", { name: "New category" }).click();
  await dialog().getByRole("button", { name: "Save" }).click();
  await dialog().locator(".field-error", { hasText: "Required." }).waitFor(); // checked before sending
  await dialog().getByLabel("Name").fill("Policies");
  await dialog().getByRole("button", { name: "Save" }).click();
  await row("data-row-name", "Policies").waitFor();
  await h.checkA11y("categories");
  await h.screenshot("admin-categories");
  await go("/manage/tags");
  await page.getByRole("button", { name: "New tag" }).click();
  await dialog().getByLabel("Name").fill("finance");
  await dialog().getByRole("button", { name: "Save" }).click();
  await row("data-row-name", "finance").waitFor();
  await page.getByRole("button", { name: "Edit finance" }).click();
  expect((await dialog().getByLabel("Name").inputValue()) === "finance", "the edit form holds the tag's name");
  await dialog().getByLabel("Name").fill("finance-ops");
  await dialog().getByLabel("Description").fill("Money matters");
  await dialog().getByRole("button", { name: "Save" }).click();
  await row("data-row-name", "finance-ops").waitFor();
  await h.checkA11y("tags");
  const tags = (await h.api("GET", "/api/tags", undefined, admin)).json;
  const categories = (await h.api("GET", "/api/categories", undefined, admin)).json;
  expect(tags.length === 1 && tags[0].name === "finance-ops" && tags[0].description === "Money matters",
    `tags: ${JSON.stringify(tags)}`);
  expect(categories.length === 1 && categories[0].name === "Policies", `categories: ${JSON.stringify(categories)}`);

  step("a duplicate name shows the server's problem in the form");
  await page.getByRole("button", { name: "New tag" }).click();
  await dialog().getByLabel("Name").fill("FINANCE-OPS");
  await dialog().getByRole("button", { name: "Save" }).click();
  await dialog().locator('[role="alert"]', { hasText: "409" }).waitFor();
  await dialog().getByRole("button", { name: "Cancel" }).click();

  step("create a review checklist with two items");
  await go("/manage/review-checklists");
  await page.getByRole("button", { name: "New checklist" }).click();
  await dialog().getByLabel("Name").fill("Policy review");
  await dialog().getByRole("button", { name: "Add Item" }).click();
  await dialog().getByRole("button", { name: "Add Item" }).click();
  await dialog().getByLabel("Item 1: Text").fill("Links still work");
  await dialog().getByLabel("Item 2: Text").fill("Screenshots are current");
  await dialog().getByLabel("Item 2: Required").uncheck();
  await h.checkA11y("checklist form");
  await dialog().getByRole("button", { name: "Save" }).click();
  const checklistRow = row("data-row-name", "Policy review");
  await checklistRow.waitFor();
  await checklistRow.locator('li[data-item-text="Screenshots are current"]', { hasText: "optional" }).waitFor();
  await h.checkA11y("checklists");
  const checklists = (await h.api("GET", "/api/review-checklists", undefined, admin)).json;
  expect(checklists.length === 1 && checklists[0].items.length === 2 &&
    checklists[0].items[0].text === "Links still work" && checklists[0].items[0].required === true &&
    checklists[0].items[1].required === false, `checklists: ${JSON.stringify(checklists)}`);

  step("create an expiry template; its deletion is refused while a hub uses it");
  await go("/manage/expiry-templates");
  await page.getByRole("button", { name: "New expiry template" }).click();
  await dialog().getByLabel("Name").fill("Quarterly");
  await dialog().getByLabel("Expires after (days)").fill("90");
  await dialog().getByLabel("Warning period (days)").fill("14");
  await dialog().getByLabel("Review required before renewal").check();
  await dialog().getByLabel("Review type").selectOption("FullReview");
  await dialog().getByLabel("Review checklist").selectOption({ label: "Policy review" });
  await h.checkA11y("expiry template form");
  await h.screenshot("admin-expiry-template-form");
  await dialog().getByRole("button", { name: "Save" }).click();
  await row("data-row-name", "Quarterly").waitFor();
  const template = (await h.api("GET", "/api/expiry-templates", undefined, admin)).json.find((t) => t.name === "Quarterly");
  expect(template.expiryDays === 90 && template.warningDays === 14 && template.reviewType === "FullReview" &&
    template.checklistId === checklists[0].id, `template: ${JSON.stringify(template)}`);
  const hub = await h.api("POST", "/api/hubs", { key: "policies", name: "Policies", defaultExpiryDays: 30, defaultExpiryTemplateId: template.id }, admin);
  expect(hub.status === 201, `create hub: ${hub.status} ${JSON.stringify(hub.json)}`);
  await page.getByRole("button", { name: "Delete Quarterly" }).click();
  await dialog().getByRole("button", { name: "Delete" }).click();
  const refusal = dialog().locator('[role="alert"]');
  await refusal.waitFor();
  const refusalText = await refusal.innerText();
  expect(refusalText.includes("(409)") && refusalText.includes("cannot be deleted"), `refusal shown: ${refusalText}`);
  await h.checkA11y("expiry template refused");
  await dialog().getByRole("button", { name: "Cancel" }).click();
  expect((await h.api("GET", `/api/expiry-templates/${template.id}`, undefined, admin)).status === 200, "the template is still there");
  await h.checkA11y("expiry templates");

  step("a category in use: deletion is refused, then detached and deleted");
  const classified = await h.api("PUT", "/api/hubs/policies/classification", { categoryId: categories[0].id }, admin);
  expect(classified.status === 200, `classify hub: ${classified.status} ${JSON.stringify(classified.json)}`);
  await go("/manage/categories");
  await page.getByRole("button", { name: "Delete Policies" }).click();
  await dialog().getByRole("button", { name: "Delete" }).click();
  const inUse = await dialog().locator('[role="alert"]').innerText();
  expect(inUse.includes("(409)"), `in-use refusal: ${inUse}`);
  await dialog().getByRole("button", { name: "Remove it from 1 hubs and entries, then delete" }).click();
  await row("data-row-name", "Policies").waitFor({ state: "detached" });
  await page.getByText("No categories yet").waitFor();
  const hubClass = (await h.api("GET", "/api/hubs/policies/classification", undefined, admin)).json;
  expect(hubClass.categoryId === null, `hub classification after detaching: ${JSON.stringify(hubClass)}`);

  step("add a webhook to a local receiver: its secret is shown once");
  const receiver = await startReceiver();
  try {
    await go("/manage/webhooks");
    await page.getByText("No webhooks yet").waitFor();
    await page.getByRole("button", { name: "New webhook" }).click();
    await dialog().getByLabel("URL").fill(receiver.url);
    await dialog().getByLabel("entry.published").check();
    await h.checkA11y("webhook form");
    await dialog().getByRole("button", { name: "Save" }).click();
    const secret = await page.locator("[data-secret]").innerText();
    expect(/^whsec_[A-Za-z0-9+/=]+$/.test(secret), `secret shown: ${secret}`);
    await row("data-row-name", receiver.url).waitFor();
    await h.checkA11y("webhooks");
    await h.screenshot("admin-webhooks");
    await page.getByRole("button", { name: "I have saved it" }).click();
    await page.locator("[data-secret]").waitFor({ state: "detached" });

    step("publish an entry and drain the outbox: the delivery is listed as delivered");
    const entry = await h.api("POST", "/api/entries", {
      hubKey: "policies", key: "travel", originalLanguage: "en", title: "Travel",
      content: JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "Book early." }] }] }),
    }, admin);
    expect(entry.status === 201, `create entry: ${entry.status} ${JSON.stringify(entry.json)}`);
    const published = await h.api("POST", `/api/entries/${entry.json.id}/publish`, undefined, admin);
    expect(published.status === 200, `publish: ${published.status}`);
    const jobs = await h.api("POST", "/dev/jobs/run", undefined, admin);
    expect(jobs.status === 200, `jobs: ${jobs.status}`);
    expect(receiver.received.length === 1 && JSON.parse(receiver.received[0].body).type === "entry.published" &&
      receiver.received[0].headers["webhook-signature"]?.startsWith("v1,"), `received: ${JSON.stringify(receiver.received)}`);
    await row("data-row-name", receiver.url).getByRole("link", { name: "Deliveries" }).click();
    await page.getByRole("heading", { name: "Webhook deliveries" }).waitFor();
    const delivery = page.locator('tr[data-delivery-event="entry.published"]');
    await delivery.waitFor();
    expect((await delivery.getAttribute("data-delivery-status")) === "delivered", "the delivery is delivered");
    expect((await delivery.locator("td[data-attempts]").innerText()) === "1", "one attempt");
    expect((await delivery.innerText()).includes("204"), "the receiver's answer is shown");
    await h.checkA11y("webhook deliveries");
    await h.screenshot("admin-webhook-deliveries");

    step("redeliver it: a new delivery is queued, then delivered");
    await delivery.getByRole("button", { name: /Redeliver/ }).click();
    await page.locator('tr[data-delivery-status="pending"]').waitFor();
    await h.api("POST", "/dev/jobs/run", undefined, admin);
    await page.getByRole("button", { name: "Refresh" }).click();
    await page.locator('tr[data-delivery-status="delivered"]').nth(1).waitFor();
    expect(receiver.received.length === 2, `redelivered: ${receiver.received.length}`);
  } finally {
    receiver.close();
  }

  step("the audit log filtered by an action prefix shows only those actions");
  await go("/manage/audit");
  await page.locator("tr[data-audit-action]").first().waitFor();
  const unfiltered = await page.locator("tr[data-audit-action]").evaluateAll((rows) => rows.map((r) => r.dataset.auditAction));
  expect(unfiltered.some((a) => a.startsWith("group.")) && unfiltered.some((a) => a.startsWith("webhook.")),
    `unfiltered actions: ${unfiltered}`);
  await page.getByLabel("Action").fill("webhook.");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll("tr[data-audit-action]")];
    return rows.length > 0 && rows.every((r) => r.dataset.auditAction.startsWith("webhook."));
  });
  const actions = await page.locator("tr[data-audit-action]").evaluateAll((rows) => rows.map((r) => r.dataset.auditAction));
  const seqs = await page.locator("tr[data-audit-action]").evaluateAll((rows) => rows.map((r) => Number(r.dataset.sequence)));
  expect(actions.includes("webhook.created") && actions.includes("webhook.redelivered") && actions.every((a) => a.startsWith("webhook.")),
    `filtered actions: ${actions}`);
  expect(seqs.every((s, i) => i === 0 || seqs[i - 1] > s), `newest first: ${seqs}`);
  await h.checkA11y("audit log");
  await h.screenshot("admin-audit");

  step("paging: more than a page of entries loads with Load more, newest first, none twice");
  for (let i = 0; i < 40; i++) {
    const r = await h.api("POST", "/api/tags", { name: `bulk-${i}` }, admin);
    expect(r.status === 201, `bulk tag ${i}: ${r.status}`);
  }
  await page.getByRole("button", { name: "Clear" }).click();
  await page.waitForFunction(() => document.querySelectorAll("tr[data-audit-action]").length === 50);
  await page.getByRole("button", { name: "Load more" }).click();
  await page.waitForFunction(() => document.querySelectorAll("tr[data-audit-action]").length > 50);
  const paged = await page.locator("tr[data-audit-action]").evaluateAll((rows) => rows.map((r) => Number(r.dataset.sequence)));
  const total = (await h.api("GET", "/api/admin/audit?limit=500", undefined, admin)).json.entries.length;
  expect(paged.length === Math.min(total, 100) && new Set(paged).size === paged.length &&
    paged.every((s, i) => i === 0 || paged[i - 1] > s), `paged sequences (${total} in all): ${paged}`);

  step("an exact action finds only that action");
  await page.getByLabel("Action").fill("group.member_added");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll("tr[data-audit-action]")];
    return rows.length === 1 && rows[0].dataset.auditAction === "group.member_added";
  });
  const [auditFile] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  const auditCsv = (await readFile(await auditFile.path(), "utf8")).trim().split(/\r?\n/);
  expect(auditCsv.length === 2 && auditCsv[0].startsWith("id,sequence,at") && auditCsv[1].includes("group.member_added"),
    `exported audit CSV: ${auditCsv.join(" | ")}`);

  step("the remaining configuration pages load, with their forms");
  for (const [path, heading, button] of [
    ["/manage/languages", "Languages", "New language"],
    ["/manage/block-heuristics", "Block-type heuristics", "New heuristic"],
    ["/manage/style-rules", "Style rules", "New style rule"],
    ["/manage/glossaries", "Glossaries", "New glossary"],
    ["/manage/notification-channels", "Notification channels", "New channel"],
    ["/manage/entry-templates", "Entry templates", "New entry template"],
  ]) {
    await go(path);
    await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
    await page.locator("table.resource-list, .empty-state").first().waitFor();
    await h.checkA11y(heading);
    await page.getByRole("button", { name: button }).click();
    await dialog().locator("form").waitFor();
    await h.checkA11y(`${heading} form`);
    await dialog().getByRole("button", { name: "Cancel" }).click();
  }
  step("languages: disable one, make another the default");
  await go("/manage/languages");
  await page.getByRole("button", { name: "Disable: German" }).click();
  await page.getByRole("button", { name: "Enable: German" }).waitFor();
  await page.getByRole("button", { name: "Make default: Spanish" }).click();
  await row("data-row-name", "es").locator(".badge", { hasText: "Default" }).waitFor();
  const languages = (await h.api("GET", "/api/admin/languages", undefined, admin)).json;
  expect(languages.find((l) => l.code === "de").isEnabled === false && languages.find((l) => l.code === "es").isDefault === true &&
    languages.find((l) => l.code === "en").isDefault === false, `languages: ${JSON.stringify(languages)}`);
  expect((await row("data-row-name", "es").getByRole("button", { name: /Delete/ }).count()) === 0, "the default offers no Delete");
  await h.api("PUT", "/api/admin/languages/en/set-default", undefined, admin);

  step("forms whose body differs from the form: a heuristic's pattern, a channel's config, a style rule's alternatives");
  await go("/manage/block-heuristics");
  await page.getByRole("button", { name: "New heuristic" }).click();
  await dialog().getByLabel("Name").fill("Warnings");
  await dialog().getByLabel("Block class").fill("warning");
  await dialog().getByLabel("Text pattern").selectOption("Prefix");
  await dialog().getByLabel("Pattern text").fill("Warning:");
  await dialog().getByRole("button", { name: "Save" }).click();
  await row("data-row-name", "Warnings").waitFor();
  const heuristic = (await h.api("GET", "/api/blocktypeheuristics", undefined, admin)).json[0];
  expect(heuristic.textPattern?.match === "Prefix" && heuristic.textPattern.text === "Warning:" && heuristic.priority === 100,
    `heuristic: ${JSON.stringify(heuristic)}`);
  await go("/manage/notification-channels");
  await page.getByRole("button", { name: "New channel" }).click();
  await dialog().getByLabel("Name").fill("Docs team");
  await dialog().getByLabel("Recipients").fill("docs@example.com, lead@example.com");
  await dialog().getByRole("button", { name: "Save" }).click();
  await row("data-row-name", "Docs team").getByText("docs@example.com, lead@example.com").waitFor();
  const channel = (await h.api("GET", "/api/notification-channels", undefined, admin)).json[0];
  expect(channel.type === "email" && channel.config.recipients.length === 2 && channel.events.length === 3, `channel: ${JSON.stringify(channel)}`);
  await go("/manage/style-rules");
  await page.getByRole("button", { name: "New style rule" }).click();
  await dialog().getByLabel("Name").fill("Say sign in");
  await dialog().getByLabel("Type").selectOption("Prefer");
  await dialog().getByLabel("Term").fill("sign in");
  await dialog().getByLabel("Alternatives to flag").fill("login\nlog-in");
  await dialog().getByRole("button", { name: "Save" }).click();
  await row("data-row-name", "Say sign in").waitFor();
  const rule = (await h.api("GET", "/api/admin/style-rules", undefined, admin)).json[0];
  expect(rule.type === "Prefer" && rule.alternatives.join("|") === "login|log-in" && rule.language === "en", `rule: ${JSON.stringify(rule)}`);

  step("an entry template from editor JSON, marked official; bad JSON is caught before sending");
  await go("/manage/entry-templates");
  await page.getByRole("button", { name: "New entry template" }).click();
  await dialog().getByLabel("Name").fill("Meeting notes");
  const blocks = dialog().getByLabel("Blocks (editor JSON)");
  const sample = await blocks.inputValue();
  await blocks.fill("[{");
  await dialog().getByRole("button", { name: "Save" }).click();
  await dialog().locator(".field-error", { hasText: "not valid JSON" }).waitFor();
  await blocks.fill(sample);
  await dialog().getByLabel("Official").check();
  await dialog().getByRole("button", { name: "Save" }).click();
  await row("data-row-name", "Meeting notes").locator(".badge", { hasText: "Official" }).waitFor();
  const templateId = (await h.api("GET", "/api/templates", undefined, admin)).json.find((t) => t.name === "Meeting notes").id;
  const entryTemplate = (await h.api("GET", `/api/templates/${templateId}`, undefined, admin)).json;
  expect(entryTemplate.isOfficial && entryTemplate.blockCount === 2 && entryTemplate.blocks.every((b) => b.attrs?.blockId),
    `entry template: ${JSON.stringify(entryTemplate)}`);

  step("a glossary: create with a term, import CSV, edit keeps the terms, export CSV");
  await go("/manage/glossaries");
  await page.getByRole("button", { name: "New glossary" }).click();
  await dialog().getByLabel("Name").fill("Product terms");
  await dialog().getByLabel("Source language").selectOption("en");
  await dialog().getByLabel("Target language").selectOption("es");
  await dialog().getByRole("button", { name: "Add Term" }).click();
  await dialog().getByLabel("Term 1: Source").fill("invoice");
  await dialog().getByLabel("Term 1: Target").fill("factura");
  await dialog().getByRole("button", { name: "Save" }).click();
  const glossaryRow = row("data-row-name", "Product terms");
  await glossaryRow.waitFor();
  await glossaryRow.getByRole("button", { name: "Import" }).click();
  await dialog().getByLabel("File").setInputFiles({ name: "terms.csv", mimeType: "text/csv", buffer: Buffer.from("source,target\r\nreceipt,recibo\r\n") });
  await h.checkA11y("glossary import");
  await dialog().getByRole("button", { name: "Import" }).click();
  await dialog().getByText("the glossary now has 2 terms").waitFor();
  await dialog().getByRole("button", { name: "Close" }).click();
  await page.getByRole("button", { name: "Edit Product terms" }).click();
  expect((await dialog().getByLabel("Term 2: Source").inputValue()) === "receipt", "the edit form holds the imported term");
  await dialog().getByLabel("Description").fill("Billing words");
  await dialog().getByRole("button", { name: "Save" }).click();
  await glossaryRow.getByText("Billing words").waitFor();
  const glossaryId = (await h.api("GET", "/api/admin/glossaries", undefined, admin)).json.find((g) => g.name === "Product terms").id;
  const terms = (await h.api("GET", `/api/admin/glossaries/${glossaryId}`, undefined, admin)).json.terms.map((t) => `${t.source}=${t.target}`);
  expect(terms.length === 2 && terms.includes("invoice=factura") && terms.includes("receipt=recibo"), `terms: ${terms}`);
  const [download] = await Promise.all([page.waitForEvent("download"), glossaryRow.getByRole("button", { name: "Export CSV" }).click()]);
  const csv = await readFile(await download.path(), "utf8");
  expect(csv.includes("receipt,recibo") && csv.includes("invoice,factura"), `exported CSV: ${csv}`);

  await go("/manage/languages");
  for (const code of ["en", "es", "de"]) await row("data-row-name", code).waitFor();
  expect((await row("data-row-name", "en").innerText()).includes("Default"), "English is the default");
  await h.screenshot("admin-languages");

  step("in Spanish: the admin pages speak Spanish, with axe still content");
  const es = await h.api("PUT", "/api/users/me/preferred-language", { languageCode: "es" }, admin);
  expect(es.status === 200 || es.status === 204, `preferred language: ${es.status}`);
  await page.goto(`${base}/hubs`);
  await page.getByRole("heading", { name: "Espacios" }).waitFor();
  await go("/manage");
  await page.getByRole("heading", { name: "Administración", level: 1 }).waitFor();
  await go("/manage/expiry-templates");
  await page.getByRole("heading", { name: "Plantillas de caducidad", level: 1 }).waitFor();
  await page.getByRole("button", { name: "Añadir plantilla de caducidad" }).click();
  await dialog().getByLabel("Caduca tras (días)").waitFor();
  await h.checkA11y("expiry template form in Spanish");
  await dialog().getByRole("button", { name: "Cancelar" }).click();
  await h.api("PUT", "/api/users/me/preferred-language", { languageCode: "en" }, admin);

  step("an editor is refused every admin page with the 403 problem");
  await h.signIn("editor", tenantId, "/hubs");
  await page.getByRole("heading", { name: "Hubs" }).waitFor();
  const adminCalls = [];
  page.on("request", (r) => {
    if (/^\/(webhooks|api\/admin|api\/users\/invitations|api\/categories|api\/groups)/.test(new URL(r.url()).pathname)) adminCalls.push(r.url());
  });
  for (const path of ["/manage/users", "/manage/audit", "/manage/webhooks", "/manage/categories", "/manage/groups", "/manage"]) {
    await page.goto(`${base}${path}`); // a full load: the server answers with the client
    const alert = page.locator('[role="alert"]');
    await alert.waitFor();
    const text = await alert.innerText();
    expect(text.includes("(403)") && text.includes("owners"), `${path} for an editor: ${text}`);
    expect((await page.locator("table").count()) === 0, `${path} shows no data to an editor`);
  }
  expect(adminCalls.length === 0, `an editor's admin pages called the API: ${adminCalls}`);
  await h.checkA11y("admin refused");
  expect((await page.locator('nav.side a[href="/manage"]').count()) === 0, "no admin links in an editor's navigation");
}
