// Keyboard only: from / signed out, with nothing but page.keyboard (Tab,
// Shift+Tab, Enter, Space, Escape, arrow keys; never a click): sign in as
// the editor persona, use the skip link, go through the navigation to a
// hub, open an entry, open its editor, type into the document and save,
// open the review dialog and close it with Escape (focus back on the button
// that opened it), and switch the reader's language. Each step asserts where
// the focus is (document.activeElement), and every element that gets the
// focus must show a visible focus indicator (a computed outline or
// box-shadow).
export async function run(h) {
  const { page, step, expect } = h;
  const tenantId = await h.newTenant("Keyboard journey");
  const admin = await h.tokenFor("admin", tenantId);
  const editor = await h.tokenFor("editor", tenantId);
  const ok = (r, what) => expect(r.status >= 200 && r.status < 300, `${what}: ${r.status} ${JSON.stringify(r.json)}`);
  const blockId = "0b5e1c4a-7d2f-4c8e-9a61-3f0d2b7c9e15";
  const doc = (text) =>
    JSON.stringify({ type: "doc", content: [{ type: "paragraph", attrs: { blockId }, content: [{ type: "text", text }] }] });
  ok(await h.api("POST", "/api/hubs", { key: "keys", name: "Keyboard hub", defaultExpiryDays: 90, defaultOrgRole: "Editor" }, admin), "create hub");
  const created = await h.api("POST", "/api/entries", {
    hubKey: "keys", key: "shortcuts", originalLanguage: "en", title: "Shortcuts", content: doc("Press Tab to move on."),
  }, editor);
  ok(created, "create entry");
  const entryId = created.json.id;
  ok(await h.api("POST", `/api/entries/${entryId}/translations/es`, { title: "Atajos", content: doc("Pulse Tab para avanzar.") }, editor),
    "create the Spanish translation");

  // What has the focus, and whether it shows it.
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return { tag: "body", visible: false, describe: "body" };
      const cs = getComputedStyle(el);
      const outline = cs.outlineStyle !== "none" && parseFloat(cs.outlineWidth) > 0;
      const shadow = cs.boxShadow !== "none" && cs.boxShadow !== "";
      const text = (el.getAttribute("aria-label") || el.textContent || el.getAttribute("name") || "").trim().slice(0, 60);
      return {
        tag: el.tagName.toLowerCase(),
        id: el.id,
        text,
        name: el.getAttribute("name"),
        href: el.getAttribute("href"),
        persona: el.getAttribute("data-persona"),
        tenant: el.closest("[data-tenant-id]")?.getAttribute("data-tenant-id") ?? null,
        classes: el.className && typeof el.className === "string" ? el.className : "",
        inContent: !!el.closest("#content"),
        inNav: !!el.closest("nav.side"),
        inDialog: !!el.closest("dialog[open]"),
        editable: el.getAttribute("contenteditable") === "true",
        visible: outline || shadow,
        describe: `<${el.tagName.toLowerCase()}${el.className ? ` class="${el.className}"` : ""}> ${text}`,
      };
    });
  const seen = [];
  const assertVisible = (f) => {
    expect(f.tag === "body" || f.visible, `the focused element shows no focus indicator: ${f.describe}`);
    seen.push(f.describe);
  };
  // Presses `key` until the focused element matches (at most `max` times),
  // checking the focus indicator of every element on the way.
  const press = async (key, matches, what, max = 60) => {
    for (let i = 0; i < max; i++) {
      await page.keyboard.press(key);
      const f = await focused();
      assertVisible(f);
      if (matches(f)) return f;
    }
    const f = await focused();
    throw new Error(`${key} never reached ${what} in ${max} presses; the focus is on ${f.describe}`);
  };
  const tabTo = (matches, what, max) => press("Tab", matches, what, max);
  const expectFocus = async (matches, what) => {
    const f = await focused();
    expect(matches(f), `the focus should be on ${what}, it is on ${f.describe}`);
    assertVisible(f);
    return f;
  };

  const atContent = (f) => f.id === "content";
  const landed = async (what) => expectFocus(atContent, `the page's content after opening ${what}`);

  step("signed out at /: the skip link is the first stop, shows itself, and moves the focus to the content");
  await page.goto(`${h.base}/`);
  await page.getByRole("heading", { name: "Sign in to Credence" }).waitFor();
  await page.locator(`[data-tenant-id="${tenantId}"] button[data-persona="editor"]`).waitFor();
  await tabTo((f) => f.classes.includes("skip-link"), "the skip link", 1);
  const skip = await page.locator(".skip-link").boundingBox();
  expect(skip && skip.x >= 0 && skip.y >= 0, `the focused skip link should be on screen: ${JSON.stringify(skip)}`);
  await page.keyboard.press("Enter");
  await expectFocus(atContent, "the content (the skip link's target)");
  await tabTo((f) => f.inContent && f.tag === "button", "the first persona button", 1);

  step("Tab to the editor persona of the tenant and press Enter: signed in, the focus on the Hubs page's content");
  await tabTo((f) => f.tenant === tenantId && f.persona === "editor", "the editor persona", 400);
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { level: 1, name: "Hubs" }).waitFor();
  await landed("the Hubs page");

  step("Shift+Tab into the navigation to its Hubs link; Enter keeps the focus there");
  await press("Shift+Tab", (f) => f.inNav && f.href === "/hubs", "the Hubs link of the navigation", 30);
  expect((await page.locator('nav.side a[href="/hubs"]').getAttribute("aria-current")) === "page", "the Hubs link should be the current page");
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { level: 1, name: "Hubs" }).waitFor();
  await expectFocus((f) => f.inNav && f.href === "/hubs", "the Hubs link");

  step("Tab on into the content to the hub and open it");
  await tabTo((f) => f.inContent && f.href === "/hubs/keys", "the Keyboard hub link");
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { level: 1, name: "Keyboard hub" }).waitFor();
  await landed("the hub");

  step("Tab to the entry and open it");
  await tabTo((f) => f.href === `/entries/${entryId}`, "the entry's link");
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { level: 1, name: "Shortcuts" }).waitFor();
  await landed("the entry");
  await h.checkA11y("reader (keyboard)");

  step("switch the reader's language with the arrow keys: Spanish shown, the focus stays on the switcher");
  await tabTo((f) => f.tag === "select" && f.name === "language", "the language switcher");
  await page.keyboard.press("ArrowDown");
  await page.getByRole("heading", { level: 1, name: "Atajos" }).waitFor();
  expect(new URL(page.url()).searchParams.get("lang") === "es", `the address should say lang=es: ${page.url()}`);
  await expectFocus((f) => f.tag === "select" && f.name === "language", "the language switcher");
  await page.keyboard.press("ArrowUp");
  await page.getByRole("heading", { level: 1, name: "Shortcuts" }).waitFor();
  await expectFocus((f) => f.tag === "select" && f.name === "language", "the language switcher");

  step("open the editor from the sidebar's Edit link");
  await tabTo((f) => f.href === `/entries/${entryId}/edit`, "the Edit link");
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { level: 1, name: "Edit entry" }).waitFor();
  await landed("the editor");

  step("type into the document and save with the Save button");
  await tabTo((f) => f.editable, "the document");
  await page.keyboard.press("Control+End");
  await page.keyboard.press("Enter");
  await page.keyboard.type("Shift+Tab moves back.");
  // A table from the formatting toolbar: Tab moves from cell to cell, and
  // the keys lead out of it again (no trap).
  await press("Shift+Tab", (f) => f.tag === "button" && f.text === "Table", "the Table button", 3);
  await page.keyboard.press("Enter");
  // The tool hands the focus back to the document (TipTap does it on the next frame).
  await page.waitForFunction(() => document.activeElement?.getAttribute("contenteditable") === "true", null, { timeout: 5000 })
    .catch(() => undefined);
  await expectFocus((f) => f.editable, "the document, in the new table");
  await page.keyboard.type("Key");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Action");
  await expectFocus((f) => f.editable, "the document (Tab moves between cells)");
  await page.keyboard.press("Control+End");
  await page.waitForTimeout(200); // the editor takes the new selection on selectionchange
  await tabTo((f) => f.tag === "button" && f.text === "Save", "the Save button (out of the table)", 3);
  await page.keyboard.press("Enter");
  await page.getByRole("status").getByText("Saved.").waitFor();
  await expectFocus((f) => f.tag === "button" && f.text === "Save", "the Save button");
  const saved = (await h.api("GET", `/api/entries/${entryId}`, undefined, editor)).json;
  expect(saved.content.includes("Shift+Tab moves back.") && saved.content.includes("Press Tab to move on."),
    `the typed paragraph should be saved after the first: ${saved.content}`);
  const table = JSON.parse(saved.content).content.find((n) => n.type === "table");
  const cells = JSON.stringify(table?.content?.[0] ?? null);
  expect(cells.includes('"Key"') && cells.includes('"Action"'), `the table's first row should hold Key and Action: ${cells}`);

  step("the review dialog: Space opens it with the focus inside; Escape closes it, the focus back on Review");
  await press("Shift+Tab", (f) => f.tag === "button" && f.text === "Review", "the Review button");
  await page.keyboard.press("Space");
  const dialog = page.getByRole("dialog", { name: "Review" });
  await dialog.waitFor();
  await expectFocus((f) => f.inDialog, "a control in the dialog");
  // Tab stays within the modal dialog.
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press("Tab");
    const f = await focused();
    if (f.tag !== "body") await expectFocus((x) => x.inDialog, "a control in the open dialog");
  }
  await h.checkA11y("review dialog (keyboard)");
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  await expectFocus((f) => f.tag === "button" && f.text === "Review", "the Review button that opened the dialog");

  step("the delete dialog: Enter opens it, Escape closes it, the focus back on Delete; the entry stays");
  await tabTo((f) => f.tag === "button" && f.text === "Delete", "the Delete button");
  await page.keyboard.press("Enter");
  const del = page.getByRole("dialog", { name: "Delete this entry?" });
  await del.waitFor();
  // Cancel, not the delete: Enter twice must not delete.
  await expectFocus((f) => f.inDialog && f.tag === "button" && f.text === "Cancel", "the dialog's Cancel button");
  await page.keyboard.press("Escape");
  await del.waitFor({ state: "hidden" });
  await expectFocus((f) => f.tag === "button" && f.text === "Delete", "the Delete button that opened the dialog");
  expect((await h.api("GET", `/api/entries/${entryId}`, undefined, editor)).status === 200, "Escape must not delete the entry");
  console.log(`    (${seen.length} focus stops checked for a visible indicator)`);
}
