// The shell a new user meets first (issue 26): a first visit logs no 404
// (the favicon), the interface language chosen in the header is saved as
// the person's preferred language and applied at once, and on a phone the
// navigation waits behind a menu button.
export async function run(h) {
  const { page, step, expect } = h;

  step("a first visit, with the cache off: no 404 anywhere, the icon is served");
  const notFound = [];
  const onConsole = (m) => {
    if (/404|Not Found/i.test(m.text())) notFound.push(`console: ${m.text()} (${m.location()?.url ?? ""})`);
  };
  const onResponse = (r) => {
    if (r.status() === 404) notFound.push(`response: ${r.url()}`);
  };
  page.on("console", onConsole);
  page.on("response", onResponse);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.clearBrowserCache");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await page.goto(`${h.base}/`);
  await page.getByRole("heading", { name: "Sign in to Credence" }).waitFor();
  await page.waitForLoadState("networkidle");
  // The browser asks for the icon on its own schedule: give it the time.
  await page.waitForTimeout(500);
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: false });
  await cdp.detach();
  page.off("console", onConsole);
  page.off("response", onResponse);
  expect(notFound.length === 0, `a first visit saw a 404:\n  ${notFound.join("\n  ")}`);
  const icon = await page.evaluate(() => document.querySelector('link[rel="icon"]')?.getAttribute("href"));
  expect(icon === "/favicon.svg", `the page links the icon ${icon}`);
  for (const [path, type] of [["/favicon.svg", "image/svg+xml"], ["/favicon.ico", "image/x-icon"]]) {
    const r = await fetch(h.base + path);
    const body = Buffer.from(await r.arrayBuffer());
    expect(r.status === 200 && r.headers.get("content-type") === type && body.length > 100,
      `${path}: ${r.status} ${r.headers.get("content-type")} ${body.length} bytes`);
  }
  const iconLoads = await page.evaluate(
    () => new Promise((ok) => {
      const img = new Image();
      img.onload = () => ok(img.naturalWidth > 0);
      img.onerror = () => ok(false);
      img.src = "/favicon.ico";
    }),
  );
  expect(iconLoads, "Chromium cannot decode /favicon.ico");

  step("the interface language: Español in the header, applied at once and saved");
  const tenantId = await h.newTenant("Shell Journey");
  const token = await h.signIn("viewer", tenantId, "/hubs");
  await page.getByRole("heading", { name: "Hubs" }).waitFor();
  const choice = page.getByRole("combobox", { name: "Interface language" });
  const options = await choice.locator("option").allInnerTexts();
  expect(options.join(",") === "English,Español", `language options: ${options}`);
  await choice.selectOption("es");
  await page.getByRole("heading", { name: "Espacios" }).waitFor();
  await page.getByRole("navigation", { name: "Principal" }).getByText("Conocimiento").waitFor();
  expect((await page.evaluate(() => document.documentElement.lang)) === "es", "<html lang> is not es");
  let saved;
  for (let i = 0; i < 50 && saved !== "es"; i++) {
    saved = (await h.api("GET", "/api/users/me", undefined, token)).json.preferredLanguage;
    if (saved !== "es") await page.waitForTimeout(100);
  }
  expect(saved === "es", `preferredLanguage on the server: ${saved}`);
  await h.checkA11y("hubs in Spanish, chosen in the header");
  step("a reload keeps it; back to English");
  await page.reload();
  await page.getByRole("heading", { name: "Espacios" }).waitFor();
  await page.getByRole("combobox", { name: "Idioma de la interfaz" }).selectOption("en");
  await page.getByRole("heading", { name: "Hubs" }).waitFor();
  for (let i = 0; i < 50 && saved !== "en"; i++) {
    saved = (await h.api("GET", "/api/users/me", undefined, token)).json.preferredLanguage;
    if (saved !== "en") await page.waitForTimeout(100);
  }
  expect(saved === "en", `preferredLanguage on the server: ${saved}`);

  step("text the server composes follows it: report titles in Spanish for an admin who chose Español");
  await h.signIn("admin", tenantId, "/hubs");
  await page.getByRole("heading", { name: "Hubs" }).waitFor();
  await page.getByRole("combobox", { name: "Interface language" }).selectOption("es");
  await page.getByRole("heading", { name: "Espacios" }).waitFor();
  await page.getByRole("navigation", { name: "Principal" }).getByRole("link", { name: "Informes de cumplimiento" }).click();
  const reportChoice = page.locator('select[name="report"]');
  await reportChoice.waitFor();
  const titles = await reportChoice.locator("option").allInnerTexts();
  expect(titles.includes("Documentos bloqueados para la IA"), `report titles: ${titles.join(" | ")}`);
  await reportChoice.selectOption("docs-blocked");
  await page.getByText("Lo que se bloqueó para el uso por IA", { exact: false }).waitFor();
  await page.getByRole("combobox", { name: "Idioma de la interfaz" }).selectOption("en");
  await page.getByRole("navigation", { name: "Main" }).waitFor();

  step("on a phone (390x844) the navigation waits behind the menu button");
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await page.goto(`${h.base}/hubs`);
    await page.getByRole("heading", { name: "Hubs" }).waitFor();
    const nav = page.locator("nav#main-nav");
    const menu = page.getByRole("button", { name: "Menu" });
    expect(await menu.isVisible(), "no menu button on a phone");
    expect((await menu.getAttribute("aria-expanded")) === "false", "the menu starts open");
    const navHeight = (await nav.boundingBox())?.height ?? 0;
    expect(navHeight < 80, `the closed navigation takes ${navHeight} px`);
    const contentTop = (await page.locator("#content").boundingBox()).y;
    expect(contentTop < 80, `the page's content starts ${contentTop} px down (header and navigation)`);
    expect(!(await nav.getByRole("link", { name: "Notifications" }).isVisible()), "a navigation link shows while closed");
    await h.checkA11y("phone, menu closed");
    await menu.click();
    expect((await menu.getAttribute("aria-expanded")) === "true", "aria-expanded stays false when open");
    for (const name of ["Hubs", "Notifications"])
      expect(await nav.getByRole("link", { name, exact: true }).isVisible(), `the open menu hides the ${name} link`);
    await h.checkA11y("phone, menu open");
    await nav.getByRole("link", { name: "Notifications", exact: true }).click();
    await page.waitForURL((u) => u.pathname !== "/hubs");
    await page.waitForFunction(() => document.querySelector(".menu-button")?.getAttribute("aria-expanded") === "false");
    expect(!(await nav.isVisible()), "the menu stays open after choosing a page");
    await h.screenshot("shell-phone");
  } finally {
    await page.setViewportSize(size);
  }
  step("on a wide screen there is no menu button and the navigation shows");
  await page.goto(`${h.base}/hubs`);
  await page.getByRole("heading", { name: "Hubs" }).waitFor();
  expect(!(await page.getByRole("button", { name: "Menu" }).isVisible()), "a menu button on a wide screen");
  expect(await page.locator("nav#main-nav").getByRole("link", { name: "Hubs", exact: true }).isVisible(),
    "the navigation is hidden on a wide screen");
}
