// Plugins, on a fresh tenant as its owner: /manage/plugins lists what the
// server offers; install content-rules and approval-workflow; edit settings
// with a plugin's own form and with the JSON editor (the server's field
// errors shown); their components appear in the tenant.admin.settings slot
// of /manage/tenant and the approval button in entry.toolbar.publish of
// /entries/:id/edit (every slot in full: plugin-slots.mjs); disable
// approval-workflow and see them go; a guard script written in
// GuardScriptsSettings denies publishing until it is disabled.
export async function run(h) {
  const { page, step, expect } = h;
  const tenantId = await h.newTenant("Plugins Journey");
  const token = await h.tokenFor("admin", tenantId);
  const api = (method, path, body) => h.api(method, path, body, token);
  const installation = async (id) => (await api("GET", "/api/tenant/plugins")).json.find((i) => i.pluginId === id);
  const row = (id) => page.locator(`li[data-plugin-id="${id}"]`);
  // The pages are reached through the navigation, as a user does (a full
  // load of /manage/plugins is checked at the end).
  const openFromNav = async (label, heading) => {
    await page.locator("nav.side").getByRole("link", { name: label, exact: true }).click();
    await page.getByRole("heading", { level: 1, name: heading }).waitFor();
  };
  const inSlot = (slot, plugin) => page.locator(`[data-slot="${slot}"] [data-plugin="${plugin}"]`);

  step("open /manage/plugins as the owner: every plugin with its description, version and status");
  await h.signIn("admin", tenantId, "/hubs");
  await openFromNav("Plugins", "Plugins");
  const manifests = (await api("GET", "/api/plugins")).json;
  for (const m of manifests) {
    await row(m.id).waitFor();
    expect((await row(m.id).getAttribute("data-status")) === "notInstalled", `${m.id} should start not installed`);
  }
  await row("approval-workflow").getByText(manifests.find((m) => m.id === "approval-workflow").description).waitFor();
  await h.checkA11y("plugins admin");

  step("install content-rules and approval-workflow: enabled at once, as the server says");
  for (const id of ["content-rules", "approval-workflow"]) {
    await row(id).getByRole("button", { name: "Install" }).click();
    await page.locator(`li[data-plugin-id="${id}"][data-status="enabled"]`).waitFor();
    const i = await installation(id);
    expect(i?.isEnabled === true, `${id} should be installed and enabled: ${JSON.stringify(i)}`);
  }
  await h.screenshot("plugins-admin");

  step("content-rules' settings through its own form: stored by the server");
  await row("content-rules").getByRole("button", { name: "Settings" }).click();
  const form = row("content-rules").locator('form[data-settings-form="content-rules"]');
  await form.getByLabel("Forbidden terms").fill("vpn\ninternal only");
  await form.getByLabel("Maximum title length (characters)").fill("80");
  await form.getByRole("button", { name: "Save settings" }).click();
  await form.getByRole("status").getByText("Saved.").waitFor();
  let settings = (await installation("content-rules")).settings;
  expect(JSON.stringify(settings.forbiddenTerms) === '["vpn","internal only"]' && settings.maxTitleLength === 80,
    `content-rules settings not stored: ${JSON.stringify(settings)}`);

  step("the JSON editor: the server's validation errors are shown by field, nothing is stored");
  await row("content-rules").getByRole("button", { name: "JSON" }).click();
  const json = row("content-rules").locator('form[data-json-settings="content-rules"]');
  await json.getByLabel("Settings (JSON object)").fill('{"maxTitleLength": "long", "colour": "red"}');
  await json.getByRole("button", { name: "Save settings" }).click();
  await json.locator('[data-field="maxTitleLength"]').waitFor();
  await json.locator('[data-field="colour"]').waitFor();
  await json.getByLabel("Settings (JSON object)").fill("{not json");
  await json.getByRole("button", { name: "Save settings" }).click();
  await json.getByText(/Not valid JSON/).waitFor();
  settings = (await installation("content-rules")).settings;
  expect(settings.maxTitleLength === 80, `refused settings must not be stored: ${JSON.stringify(settings)}`);
  await h.checkA11y("plugins admin with settings");

  step("/manage/tenant: the tenant's details and the enabled plugins' settings in the tenant.admin.settings slot");
  await page.getByRole("link", { name: "tenant settings page." }).click();
  await page.getByRole("heading", { level: 1, name: "Tenant settings" }).waitFor();
  await page.locator("[data-tenant-name]", { hasText: "Plugins Journey" }).waitFor();
  await inSlot("tenant.admin.settings", "content-rules").locator('form[data-settings-form="content-rules"]').waitFor();
  const approvalSettings = page.locator(
    '[data-slot="tenant.admin.settings"] [data-plugin="approval-workflow"][data-component="ApprovalWorkflowSettings"]',
  );
  await approvalSettings.getByRole("heading", { name: "Approval workflow" }).waitFor();
  await approvalSettings.getByLabel("Exempt hubs (hub keys)").fill("sandbox");
  await approvalSettings.getByRole("button", { name: "Save settings" }).click();
  await approvalSettings.getByRole("status").getByText("Saved.").waitFor();
  expect(JSON.stringify((await installation("approval-workflow")).settings.exemptHubs) === '["sandbox"]',
    "approval-workflow's exemptHubs not stored");
  await h.checkA11y("tenant settings");
  await h.screenshot("tenant-settings");

  step("a hub and a draft entry to publish (API)");
  const hub = await api("POST", "/api/hubs", { key: "plugins-hub", name: "Plugins hub", defaultExpiryDays: 90 });
  expect(hub.status === 201, `POST /api/hubs: ${hub.status} ${JSON.stringify(hub.json)}`);
  const newEntry = async (key, title) => {
    const doc = { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "Plain words." }] }] };
    const r = await api("POST", "/api/entries", { hubKey: "plugins-hub", key, originalLanguage: "en", title, content: JSON.stringify(doc) });
    expect(r.status === 201, `POST /api/entries: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json.id;
  };
  const entryId = await newEntry("first-entry", "First entry");
  const publish = await api("POST", `/api/entries/${entryId}/publish`);
  expect(publish.status === 422 && publish.json.reasonCode === "approval_required",
    `publishing without approval should be denied approval_required: ${publish.status} ${JSON.stringify(publish.json)}`);

  // The entry slots in full (every slot with the shipped plugins' components)
  // are e2e/journeys/plugin-slots.mjs; here the approval button appears in
  // entry.toolbar.publish and requests an approval, and leaves once the
  // plugin is disabled.
  step("ENTRY SLOTS: ApprovalPublishButton in entry.toolbar.publish of /entries/:id/edit");
  await page.goto(`${h.base}/entries/${entryId}/edit`);
  const button = inSlot("entry.toolbar.publish", "approval-workflow");
  await button.getByRole("button", { name: "Request approval" }).click();
  await button.locator('[data-approval-status="Pending"]').waitFor();
  const approvals = await api("GET", `/api/plugins/approval-workflow/entries/${entryId}/approvals`);
  expect(approvals.json[0]?.status === "Pending", `approval not requested: ${JSON.stringify(approvals.json)}`);
  await h.checkA11y("entry editor with plugin slots");

  step("disable approval-workflow: its components leave the slots, the server no longer asks for approval");
  await openFromNav("Plugins", "Plugins");
  await row("approval-workflow").getByRole("button", { name: "Disable" }).click();
  await page.locator('li[data-plugin-id="approval-workflow"][data-status="disabled"]').waitFor();
  expect((await installation("approval-workflow")).isEnabled === false, "approval-workflow should be disabled");
  await page.getByRole("link", { name: "tenant settings page." }).click();
  await page.getByRole("heading", { level: 1, name: "Tenant settings" }).waitFor();
  await inSlot("tenant.admin.settings", "content-rules").first().waitFor();
  expect((await inSlot("tenant.admin.settings", "approval-workflow").count()) === 0,
    "ApprovalWorkflowSettings should be gone from the slot");
  await page.goto(`${h.base}/entries/${entryId}/edit`);
  await page.locator('[data-slot="entry.toolbar.publish"]').waitFor({ state: "attached" });
  await page.waitForLoadState("networkidle"); // the plugin list has loaded
  expect((await inSlot("entry.toolbar.publish", "approval-workflow").count()) === 0,
    "ApprovalPublishButton should be gone from the toolbar");

  step("install script-guards; write a guard script in GuardScriptsSettings that denies publishing");
  await openFromNav("Plugins", "Plugins");
  await row("script-guards").getByRole("button", { name: "Install" }).click();
  await page.locator('li[data-plugin-id="script-guards"][data-status="enabled"]').waitFor();
  await openFromNav("Tenant settings", "Tenant settings");
  const scripts = page.locator('[data-slot="tenant.admin.settings"] [data-plugin="script-guards"][data-component="GuardScriptsSettings"]');
  await scripts.getByRole("heading", { name: "Guard scripts" }).waitFor();
  await scripts.getByText("No guard scripts yet.").waitFor();
  await scripts.getByText("New script").click();
  const newScript = scripts.locator('form[data-script-form="new"]');
  await newScript.getByLabel("Name").fill("Publishing freeze");
  await newScript.getByLabel("Action").selectOption("Entry.Publish");
  await newScript.getByLabel("Lua source").fill("function guard(ctx)\n  return false, \"publish_frozen\", \"Publishing is frozen.\"\nend\n");
  await newScript.getByRole("button", { name: "Create script" }).click();
  const scriptRow = scripts.locator('li[data-script-name="Publishing freeze"]');
  await scriptRow.waitFor();
  expect((await scriptRow.getAttribute("data-enabled")) === "true", "the new script should be enabled");
  await h.checkA11y("guard scripts");

  step("a syntax error is refused with Lua's message");
  await newScript.getByLabel("Name").fill("Broken");
  await newScript.getByLabel("Lua source").fill("function guard(ctx)\n  return true\n");
  await newScript.getByRole("button", { name: "Create script" }).click();
  await newScript.locator('[data-field="source"]').waitFor();
  expect((await scripts.locator('li[data-script-name="Broken"]').count()) === 0, "a script that does not compile must not be stored");

  step("the dry run says deny; publishing is denied by the script");
  await scriptRow.getByRole("button", { name: "Try it" }).click();
  await scriptRow.getByRole("button", { name: "Run the dry run" }).click();
  await scriptRow.locator('[data-verdict="deny"]', { hasText: "publish_frozen" }).waitFor();
  const denied = await api("POST", `/api/entries/${entryId}/publish`);
  expect(denied.status === 422 && denied.json.reasonCode === "publish_frozen",
    `publishing should be denied by the script: ${denied.status} ${JSON.stringify(denied.json)}`);

  step("edit the script: a new version, stored as written");
  await scriptRow.getByRole("button", { name: "Edit" }).click();
  const editForm = scriptRow.locator('form[data-script-form="edit"]');
  await editForm.getByLabel("Lua source").fill(
    "function guard(ctx)\n  return false, \"publish_frozen\", \"Publishing is frozen until Monday.\"\nend\n");
  await editForm.getByRole("button", { name: "Save script" }).click();
  await scriptRow.getByText("v2").waitFor();
  const script = (await api("GET", "/api/plugins/script-guards/scripts")).json.find((x) => x.name === "Publishing freeze");
  expect(script.version === 2 && script.source.includes("until Monday"), `script not updated: ${JSON.stringify(script)}`);
  const deniedAgain = await api("POST", `/api/entries/${entryId}/publish`);
  expect(deniedAgain.json.message === "Publishing is frozen until Monday.", `the new version should act: ${JSON.stringify(deniedAgain.json)}`);

  step("disable the script: publishing goes through");
  await scriptRow.getByRole("button", { name: "Disable" }).click();
  await scripts.locator('li[data-script-name="Publishing freeze"][data-enabled="false"]').waitFor();
  const published = await api("POST", `/api/entries/${entryId}/publish`);
  expect(published.status === 200, `publishing should succeed once the script is disabled: ${published.status} ${JSON.stringify(published.json)}`);

  step("install safe-delete, admission-hooks and dev-faults: every settings component in the slot");
  await openFromNav("Plugins", "Plugins");
  for (const id of ["safe-delete", "admission-hooks", "dev-faults"]) {
    await row(id).getByRole("button", { name: "Install" }).click();
    await page.locator(`li[data-plugin-id="${id}"][data-status="enabled"]`).waitFor();
  }
  await openFromNav("Tenant settings", "Tenant settings");
  const settingsSlot = page.locator('[data-slot="tenant.admin.settings"]');
  for (const name of ["ContentRulesSettings", "SafeDeleteSettings", "GuardScriptsSettings", "AdmissionHooksSettings", "DevFaultsSettings"])
    await settingsSlot.locator(`[data-component="${name}"] h3`).waitFor();
  await h.checkA11y("tenant settings with every plugin");

  step("SafeDeleteSettings: the days are stored");
  const safeDelete = settingsSlot.locator('[data-component="SafeDeleteSettings"]');
  await safeDelete.getByLabel("Days").fill("7");
  await safeDelete.getByRole("button", { name: "Save settings" }).click();
  await safeDelete.getByText("Saved.").waitFor();
  expect((await installation("safe-delete")).settings.days === 7, "safe-delete days not stored");

  step("AdmissionHooksSettings: a refused URL is named; add a hook (its secret shown once), disable and delete it");
  const hooks = settingsSlot.locator('[data-component="AdmissionHooksSettings"]');
  await hooks.getByText("No admission hooks yet.").waitFor();
  await hooks.getByText("New hook").click();
  await hooks.getByLabel("Name").fill("Audit hook");
  await hooks.getByLabel("Action").selectOption("Entry.Delete");
  await hooks.getByLabel("URL (https)").fill("ftp://hooks.example.com/credence");
  await hooks.getByRole("button", { name: "Add hook" }).click();
  await hooks.locator('[role="alert"]').first().waitFor();
  await hooks.getByLabel("URL (https)").fill("https://hooks.example.com/credence");
  await hooks.getByRole("button", { name: "Add hook" }).click();
  await hooks.locator("[data-hook-secret]", { hasText: "whsec_" }).waitFor();
  const hookRow = hooks.locator('li[data-hook-name="Audit hook"][data-enabled="true"]');
  await hookRow.waitFor();
  let stored = (await api("GET", "/api/plugins/admission-hooks/hooks")).json;
  expect(stored.length === 1 && stored[0].action === "Entry.Delete" && !("secret" in stored[0]),
    `hook not stored as asked: ${JSON.stringify(stored)}`);
  await hookRow.getByRole("button", { name: "Disable" }).click();
  await hooks.locator('li[data-hook-name="Audit hook"][data-enabled="false"]').waitFor();
  expect((await api("GET", "/api/plugins/admission-hooks/hooks")).json[0].isEnabled === false, "the hook should be disabled");
  await hooks.locator('li[data-hook-name="Audit hook"]').getByRole("button", { name: "Delete" }).click();
  await page.getByRole("dialog", { name: "Delete the hook Audit hook?" }).getByRole("button", { name: "Delete" }).click();
  await hooks.getByText("No admission hooks yet.").waitFor();
  expect((await api("GET", "/api/plugins/admission-hooks/hooks")).json.length === 0, "the hook should be deleted");

  step("DevFaultsSettings: mode deny makes its guard deny publishing; allow lets it through");
  const faults = settingsSlot.locator('[data-component="DevFaultsSettings"]');
  await faults.getByLabel("Mode").selectOption("deny");
  await faults.getByRole("button", { name: "Save settings" }).click();
  await faults.getByText("Saved.").waitFor();
  const second = await newEntry("second-entry", "Second entry");
  const faulted = await api("POST", `/api/entries/${second}/publish`);
  expect(faulted.status === 422 && faulted.json.pluginId === "dev-faults",
    `dev-faults in deny mode should deny: ${faulted.status} ${JSON.stringify(faulted.json)}`);
  await faults.getByLabel("Mode").selectOption("allow");
  await faults.getByRole("button", { name: "Save settings" }).click();
  await faults.getByText("Saved.").waitFor();
  const ok = await api("POST", `/api/entries/${second}/publish`);
  expect(ok.status === 200, `dev-faults in allow mode should allow: ${ok.status} ${JSON.stringify(ok.json)}`);

  step("uninstall approval-workflow after confirming");
  await openFromNav("Plugins", "Plugins");
  await row("approval-workflow").getByRole("button", { name: "Uninstall" }).click();
  const dialog = page.getByRole("dialog", { name: "Uninstall Approval workflow?" });
  await h.checkA11y("uninstall dialog");
  await dialog.getByRole("button", { name: "Uninstall" }).click();
  await page.locator('li[data-plugin-id="approval-workflow"][data-status="notInstalled"]').waitFor();
  expect((await installation("approval-workflow")) === undefined, "approval-workflow should be uninstalled");

  step("a member sees no plugin administration links, and the page says only owners manage plugins");
  await h.signIn("editor", tenantId, "/hubs");
  await page.getByRole("heading", { level: 1, name: "Hubs" }).waitFor();
  expect((await page.locator("nav.side").getByRole("link", { name: "Plugins", exact: true }).count()) === 0, "the Plugins link is for owners");
  await page.goto(`${h.base}/manage/plugins`); // a full load: the server answers with the client
  await page.getByRole("heading", { level: 1, name: "Plugins" }).waitFor();
  await page.getByText("Only tenant owners can install").waitFor();
  expect((await row("content-rules").getByRole("button").count()) === 0, "a member gets no plugin buttons");
  await h.checkA11y("plugins admin (member)");
}
