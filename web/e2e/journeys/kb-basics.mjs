// Sign in through the page as the editor persona, open the demo hub, read the
// Spanish translation of "Expense policy" with its stale block marked, write a
// new entry, see an API error's detail, and the UI in Spanish.
export async function run(h) {
  const { page, base, step, expect } = h;

  step("open / and sign in as the editor persona");
  await page.goto(`${base}/`);
  await page.getByRole("heading", { name: "Sign in to Credence" }).waitFor();
  await h.checkA11y("sign-in");
  await h.screenshot("sign-in");
  await page.locator('button[data-persona="editor"]').first().click();
  await page.getByRole("heading", { name: "Hubs" }).waitFor();
  await page.getByText("Eddie Editor").waitFor();
  await h.checkA11y("hubs");

  step("open the demo hub: its entries with status badges");
  await page.getByRole("link", { name: "Employee Handbook" }).click();
  await page.getByRole("heading", { name: "Employee Handbook" }).waitFor();
  const expenses = page.locator('li[data-entry-key="expenses"]');
  await expenses.locator(".badge", { hasText: "Published" }).waitFor();
  await h.checkA11y("hub");

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
  expect(staleCount === 1 && staleText.includes("50 EUR"),
    `expected exactly the meals block marked stale, got ${staleCount}: ${staleText}`);
  await page.getByText("1 of 4 blocks out of date").waitFor();
  expect((await page.locator("section.block").count()) === 4, "expected 4 blocks in the translation");
  await h.checkA11y("reader");
  await h.screenshot("reader");

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
  await h.checkA11y("editor");
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByText("Entry created as a draft.").waitFor();
  await page.getByRole("link", { name: /Back to the entry/ }).click();
  await page.getByRole("link", { name: /Back to the hub/ }).click();
  await page.locator('li[data-entry-key="travel-checklist"]').waitFor();
  await page.locator('li[data-entry-key="travel-checklist"] .badge', { hasText: "Draft" }).first().waitFor();

  step("the saved entry reads back with a block id on every top-level block");
  await page.locator('li[data-entry-key="travel-checklist"] a').click();
  await page.getByRole("heading", { name: "Before you go" }).first().waitFor();
  await page.locator("article li", { hasText: "Passport" }).waitFor();
  const ids = await page.locator("section.block").evaluateAll((els) => els.map((e) => e.getAttribute("data-block-id")));
  expect(ids.length === 3 && ids.every(Boolean) && new Set(ids).size === 3,
    `expected 3 blocks with distinct ids, got ${JSON.stringify(ids)}`);

  step("an API error shows the problem's detail, not a blank page");
  await page.goto(`${base}/entries/00000000-0000-0000-0000-000000000000`);
  await page.locator('[role="alert"]').waitFor();
  const alert = await page.locator('[role="alert"]').innerText();
  expect(/\(4\d\d\)/.test(alert) && alert.trim().length >= 10, `unexpected error box: ${alert}`);

  step("with Spanish as the preferred language the UI speaks Spanish");
  const { status } = await h.inPage("PUT", "/api/users/me/preferred-language", { languageCode: "es" });
  expect(status === 200 || status === 204, `PUT preferred-language answered ${status}`);
  await page.goto(`${base}/hubs`);
  await page.getByRole("heading", { name: "Espacios" }).waitFor();
  await page.getByRole("button", { name: "Cerrar sesión" }).waitFor();
  step("another tenant's people cannot open this tenant's entry or hub: the 404 problem, not its content");
  const demo = await h.tokenFor("editor", await h.demoTenantId());
  const expensesId = (await h.api("GET", "/api/entries/hubs/handbook", undefined, demo)).json.find((e) => e.key === "expenses").id;
  const outsider = await h.newTenant("Outsiders");
  await h.signIn("admin", outsider, `/entries/${expensesId}`);
  await page.locator('[role="alert"]', { hasText: "(404)" }).waitFor();
  expect((await page.getByText("Expense policy").count()) === 0, "another tenant's entry title is shown");
  await page.goto(`${base}/hubs/handbook`);
  await page.locator('[role="alert"]', { hasText: "(404)" }).waitFor();
  await h.signIn("editor", await h.demoTenantId(), "/hubs");

  // Back to English for the journeys after this one (same demo user).
  await h.inPage("PUT", "/api/users/me/preferred-language", { languageCode: "en" });
}
