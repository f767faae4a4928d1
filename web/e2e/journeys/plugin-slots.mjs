// Every plugin UI slot with the shipped plugins' components, in the pages
// that host them, each with its outcome checked through the API (on a fresh
// tenant; the plugins are installed through the API, plugins.mjs covers
// installing them on /manage/plugins):
//   entry.toolbar.publish  ApprovalPublishButton requests an approval (Pending)
//   entry.approval.dialog  ApprovalDialog lists it; the author cannot approve
//                          (approver_is_author shown), the owner approves;
//                          Publish, denied before with the guard's message,
//                          then succeeds
//   hub.admin.settings     HubContentRulesSettings saves a hub rule
//   entry.sidebar.status   ContentRulesStatus shows the rules the entry breaks
//   entry.delete.confirm   an AI app's usage record brings safe-delete's rule
//                          in: the delete is held until SafeDeleteConfirm has
//                          the key and a reason, then goes through with them
//   tenant.admin.settings  /manage/tenant lists the settings components
export async function run(h) {
  const { page, step, expect } = h;
  const tenantId = await h.newTenant("Plugin slots");
  const admin = await h.tokenFor("admin", tenantId);
  const editor = await h.tokenFor("editor", tenantId);
  const api = (method, path, body, token = admin) => h.api(method, path, body, token);
  const ok = (r, what) => expect(r.status >= 200 && r.status < 300, `${what}: ${r.status} ${JSON.stringify(r.json)}`);
  const inSlot = (slot, plugin) => page.locator(`[data-slot="${slot}"] [data-plugin="${plugin}"]`);
  const approvals = async (id) => (await api("GET", `/api/plugins/approval-workflow/entries/${id}/approvals`)).json;

  step("setup (API): content-rules, approval-workflow and safe-delete installed; a hub; a draft by the editor");
  for (const id of ["content-rules", "approval-workflow", "safe-delete"])
    ok(await api("POST", `/api/tenant/plugins/${id}/install`), `install ${id}`);
  ok(await api("POST", "/api/hubs", { key: "slots", name: "Slots hub", defaultExpiryDays: 90, defaultOrgRole: "Editor" }), "create hub");
  const doc = { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "Plain words for the slots." }] }] };
  const created = await api("POST", "/api/entries", {
    hubKey: "slots", key: "slot-entry", originalLanguage: "en", title: "Slot entry", content: JSON.stringify(doc),
  }, editor);
  ok(created, "create entry");
  const entryId = created.json.id;

  step("entry.toolbar.publish: Publish is denied with the guard's message until approved");
  await h.signIn("editor", tenantId, `/entries/${entryId}/edit`);
  await page.getByRole("heading", { level: 1, name: "Edit entry" }).waitFor();
  const toolbar = page.getByRole("toolbar", { name: "Entry actions" });
  await toolbar.getByRole("button", { name: "Publish", exact: true }).click();
  const denial = page.locator('[data-guard-denied="true"]');
  await denial.waitFor();
  const apiDenial = await api("POST", `/api/entries/${entryId}/publish`, undefined, editor);
  expect(apiDenial.status === 422 && apiDenial.json.reasonCode === "approval_required",
    `publishing should need an approval: ${apiDenial.status} ${JSON.stringify(apiDenial.json)}`);
  const shown = await denial.innerText();
  expect(shown.includes("Publishing was stopped by a rule") && shown.includes(apiDenial.json.message),
    `the guard's message "${apiDenial.json.message}" should be shown, got: ${shown}`);

  step("entry.toolbar.publish: ApprovalPublishButton requests an approval (Pending on the server)");
  const publishButton = inSlot("entry.toolbar.publish", "approval-workflow");
  await publishButton.locator('[data-approval-status="none"]').waitFor();
  await publishButton.getByLabel("Comment for the approver (optional)").fill("Ready for review");
  await publishButton.getByRole("button", { name: "Request approval" }).click();
  await publishButton.locator('[data-approval-status="Pending"]').waitFor();
  let list = await approvals(entryId);
  expect(list.length === 1 && list[0].status === "Pending" && list[0].requestComment === "Ready for review",
    `approval not requested as asked: ${JSON.stringify(list)}`);
  await h.checkA11y("editor with the approval button");

  step("entry.approval.dialog: ApprovalDialog lists the request; its author cannot approve it");
  await toolbar.getByRole("button", { name: "Approval", exact: true }).click();
  let dialog = page.getByRole("dialog", { name: "Approval" });
  let row = dialog.locator(`[data-slot="entry.approval.dialog"] li[data-approval-id="${list[0].id}"][data-approval-status="Pending"]`);
  await row.getByText("Ready for review").waitFor();
  await h.checkA11y("approval dialog");
  await row.getByRole("button", { name: "Approve" }).click();
  await row.locator('[role="alert"]').waitFor();
  expect((await approvals(entryId))[0].status === "Pending", "the author's approval must be refused");
  await dialog.getByRole("button", { name: "Close" }).click();
  await dialog.waitFor({ state: "hidden" });

  step("entry.approval.dialog: the owner (another person) approves; the toolbar says Approved; Publish succeeds");
  await h.signIn("admin", tenantId, `/entries/${entryId}/edit`);
  await toolbar.getByRole("button", { name: "Approval", exact: true }).click();
  dialog = page.getByRole("dialog", { name: "Approval" });
  row = dialog.locator(`li[data-approval-id="${list[0].id}"]`);
  await row.getByLabel("Comment").fill("Looks right");
  await row.getByRole("button", { name: "Approve" }).click();
  await dialog.locator(`li[data-approval-id="${list[0].id}"][data-approval-status="Approved"]`).waitFor();
  list = await approvals(entryId);
  expect(list[0].status === "Approved" && list[0].decisionComment === "Looks right", `not approved: ${JSON.stringify(list)}`);
  await dialog.getByRole("button", { name: "Close" }).click();
  await dialog.waitFor({ state: "hidden" });
  await publishButton.locator('[data-approval-status="Approved"]').waitFor();
  await toolbar.getByRole("button", { name: "Publish", exact: true }).click();
  await page.getByRole("status").getByText("Published.").waitFor();
  const published = (await api("GET", `/api/entries/${entryId}`)).json;
  expect(published.status === "Published", `the entry should be published: ${published.status}`);

  step("hub.admin.settings: HubContentRulesSettings saves the hub's rules (GET /api/hubs/slots/rules)");
  await page.goto(`${h.base}/hubs/slots/settings`);
  await page.getByRole("heading", { level: 1, name: "Settings: Slots hub" }).waitFor();
  const hubRules = inSlot("hub.admin.settings", "content-rules");
  await hubRules.getByRole("heading", { name: "This hub's content rules" }).waitFor();
  await hubRules.getByLabel("Apply this hub's rules").check();
  await hubRules.getByLabel("Maximum title length (characters)").fill("5");
  await hubRules.getByLabel("Forbidden terms").fill("plain");
  await hubRules.getByRole("button", { name: "Save settings" }).click();
  await hubRules.getByRole("status").getByText("Saved.").waitFor();
  const rules = (await api("GET", "/api/hubs/slots/rules")).json;
  expect(rules.isEnabled === true && rules.rules.maxTitleLength === 5 && JSON.stringify(rules.rules.forbiddenTerms) === '["plain"]',
    `hub rules not stored: ${JSON.stringify(rules)}`);
  await h.checkA11y("hub settings with the hub rules");

  step("entry.sidebar.status: ContentRulesStatus in the reader shows the rules the entry breaks, as the guard does");
  await page.goto(`${h.base}/entries/${entryId}`);
  const status = inSlot("entry.sidebar.status", "content-rules");
  await status.getByRole("heading", { name: "Content rules" }).waitFor();
  await status.locator('li[data-rule="maxTitleLength"][data-ok="false"]', { hasText: "10/5" }).waitFor();
  await status.locator('li[data-rule="forbiddenTerms"][data-ok="false"]', { hasText: "plain" }).waitFor();
  await h.checkA11y("reader with the content-rules status");
  // The server agrees: publishing again is denied by content-rules.
  const republish = await api("POST", `/api/entries/${entryId}/publish`);
  expect(republish.status === 422 && republish.json.pluginId === "content-rules" && republish.json.reasonCode === "title_too_long",
    `the hub's rule should stop a publish: ${republish.status} ${JSON.stringify(republish.json)}`);

  step("entry.delete.confirm: an AI app used the entry, so safe-delete asks for a confirmed delete");
  const app = await api("POST", "/trust-admin/apps", { name: "Slots bot", channel: "employee_chat", risk: "low" });
  ok(app, "create app");
  const key = await api("POST", `/trust-admin/apps/${app.json.id}/keys`, {
    name: "test", expiresAt: new Date(Date.now() + 7 * 86400000).toISOString(), scopes: ["trust:usage"],
  });
  ok(key, "mint app key");
  ok(await api("POST", "/api/trust/usage", { sources: [`entry:${entryId}`], outcome: "answer_sent" }, key.json.clientSecret), "record usage");
  const unconfirmed = await api("DELETE", `/api/entries/${entryId}`, undefined, editor);
  expect(unconfirmed.status === 422 && unconfirmed.json.reasonCode === "entry_used_by_ai" && unconfirmed.json.metadata?.usageCount >= 1,
    `an unconfirmed delete should be denied entry_used_by_ai: ${unconfirmed.status} ${JSON.stringify(unconfirmed.json)}`);

  step("entry.delete.confirm: the confirm button stays disabled until SafeDeleteConfirm has the key and a reason");
  await h.signIn("editor", tenantId, `/entries/${entryId}/edit`);
  await toolbar.getByRole("button", { name: "Delete", exact: true }).click();
  dialog = page.getByRole("dialog", { name: "Delete this entry?" });
  const confirm = inSlot("entry.delete.confirm", "safe-delete");
  await confirm.getByText("Safe delete is on").waitFor();
  const deleteButton = dialog.getByRole("button", { name: "Delete entry" });
  // Held: disabled, with the host's note (the contribution says so in an effect).
  await dialog.getByRole("button", { name: "Delete entry", disabled: true }).waitFor();
  await dialog.getByText("A plugin holds the delete back until its condition is met.").waitFor();
  await h.checkA11y("delete dialog with safe-delete");
  await confirm.getByLabel("Type the entry's key (slot-entry) to confirm").fill("slot-entr");
  await confirm.getByLabel("Reason for deleting").fill("Superseded by the new policy");
  expect(await deleteButton.isDisabled(), "a wrong key must keep the delete held");
  await confirm.getByLabel("Type the entry's key (slot-entry) to confirm").fill("slot-entry");
  await confirm.locator('.safe-delete[data-ready="true"]').waitFor();
  await dialog.getByRole("button", { name: "Delete entry", disabled: false }).waitFor();
  let deleteUrl = null;
  page.on("request", (r) => {
    if (r.method() === "DELETE" && r.url().includes(`/api/entries/${entryId}`)) deleteUrl = r.url();
  });
  await deleteButton.click();
  await page.getByRole("heading", { level: 1, name: "Slots hub" }).waitFor();
  const gone = await api("GET", `/api/entries/${entryId}`);
  expect(gone.status === 404, `the entry should be deleted: ${gone.status}`);
  expect(deleteUrl && new URL(deleteUrl).searchParams.get("confirm") === "true"
    && new URL(deleteUrl).searchParams.get("reason") === "Superseded by the new policy",
    `the delete should carry confirm=true and the reason: ${deleteUrl}`);
  // The audit log keeps the reason with what was deleted.
  const audit = await h.api("GET", "/api/admin/audit?action=entry.deleted", undefined, await h.tokenFor("admin", tenantId));
  const deleted = audit.json.entries.find((e) => e.target.id === entryId);
  expect(deleted?.details.reason === "Superseded by the new policy" && deleted.details.confirmed === true,
    `the audit entry of the delete: ${JSON.stringify(deleted)}`);

  step("tenant.admin.settings: the three plugins' settings components on /manage/tenant");
  await h.signIn("admin", tenantId, "/manage/tenant");
  await page.getByRole("heading", { level: 1, name: "Tenant settings" }).waitFor();
  for (const [plugin, component] of [
    ["content-rules", "ContentRulesSettings"], ["approval-workflow", "ApprovalWorkflowSettings"], ["safe-delete", "SafeDeleteSettings"],
  ])
    await page.locator(`[data-slot="tenant.admin.settings"] [data-plugin="${plugin}"][data-component="${component}"] h3`).waitFor();
}
