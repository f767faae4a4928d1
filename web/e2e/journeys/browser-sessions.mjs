// Browser sessions (issue 26; docs/sign-in.md, "Browser sessions"): the
// session is an HttpOnly, SameSite=Lax cookie every tab shares, so a reload
// and a second tab (a link from a notification email, a middle-click) are
// still signed in, and no script can read the token: document.cookie,
// localStorage and sessionStorage hold none. A change the cookie signs in
// without the CSRF header is refused, another site's page gets nowhere, and
// sign-out ends the session on the server and in every tab.
import { createServer } from "node:http";

// What a script of the page can see of the session: nothing.
async function scriptVisible(page) {
  return page.evaluate(() => ({
    cookie: document.cookie,
    localStorage: JSON.stringify(Object.entries(localStorage)),
    sessionStorage: JSON.stringify(Object.entries(sessionStorage)),
  }));
}

function expectNoToken(expect, seen, token, where) {
  for (const [store, text] of Object.entries(seen))
    expect(!text.includes(token) && !/crd_ss_|dev-token-/.test(text), `${where}: ${store} holds a session token: ${text}`);
}

// A page of another site: "localhost" is not the site of 127.0.0.1.
function startOtherSite() {
  const server = createServer((_, res) => {
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end("<!doctype html><title>Another site</title><h1>Another site</h1>");
  });
  return new Promise((ok) => server.listen(0, "localhost", () => ok({ url: `http://localhost:${server.address().port}`, server })));
}

export async function run(h) {
  const { page, base, step, expect } = h;
  const tenantId = await h.newTenant("Browser sessions");
  const admin = await h.tokenFor("admin", tenantId);
  const hub = await h.api("POST", "/api/hubs", { key: "policies", name: "Company Policies", defaultExpiryDays: 90, defaultOrgRole: "Viewer" }, admin);
  expect(hub.status === 201, `create hub: ${hub.status} ${JSON.stringify(hub.json)}`);

  step("sign in with the sign-in page's persona button");
  await page.goto(`${base}/`);
  await page.getByRole("heading", { name: "Sign in to Credence" }).waitFor();
  await page.locator(`.tenant[data-tenant-id="${tenantId}"] button[data-persona="editor"]`).click();
  await page.getByRole("heading", { name: "Hubs" }).waitFor();
  await page.getByText("Eddie Editor").waitFor();

  step("the session is an HttpOnly, SameSite=Lax cookie, and no script can read it");
  const cookies = (await h.context.cookies(base)).filter((c) => c.name === "credence_session");
  expect(cookies.length === 1, `session cookies: ${JSON.stringify(cookies)}`);
  const [cookie] = cookies;
  expect(cookie.value.startsWith("crd_ss_") && cookie.httpOnly && cookie.sameSite === "Lax" && cookie.path === "/" && !cookie.secure,
    `the session cookie: ${JSON.stringify({ ...cookie, value: cookie.value.slice(0, 7) })}`);
  expect(cookie.expires > Date.now() / 1000 + 6 * 24 * 3600, `the cookie lasts the session's lifetime: ${cookie.expires}`);
  const token = cookie.value;
  expectNoToken(expect, await scriptVisible(page), token, "after sign-in");

  step("a reload is still signed in");
  await page.reload();
  await page.getByRole("heading", { name: "Hubs" }).waitFor();
  await page.getByText("Eddie Editor").waitFor();

  step("a second tab opened on a deep link is signed in too");
  const second = await h.context.newPage();
  try {
    await second.goto(`${base}/hubs/policies`);
    await second.getByRole("heading", { name: "Company Policies" }).waitFor();
    await second.getByText("Eddie Editor").waitFor();
    expectNoToken(expect, await scriptVisible(second), token, "second tab");

    step("the client's own changes carry the CSRF header; a request without it is refused");
    await page.getByRole("combobox", { name: "Interface language" }).selectOption("es");
    await page.getByRole("heading", { name: "Espacios" }).waitFor();
    await page.getByRole("combobox", { name: "Idioma de la interfaz" }).selectOption("en");
    await page.getByRole("heading", { name: "Hubs" }).waitFor();
    const forged = await page.evaluate(async () => {
      const r = await fetch("/api/users/me/preferred-language", {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ languageCode: "es" }),
      });
      return { status: r.status, type: r.headers.get("content-type"), code: (await r.json()).code };
    });
    expect(forged.status === 403 && forged.type === "application/problem+json" && forged.code === "csrf_header_missing",
      `a change without the header: ${JSON.stringify(forged)}`);
    expect((await h.api("GET", "/api/users/me", undefined, admin)).status === 200, "the server is fine");
    expect((await h.inPage("GET", "/api/users/me")).json.preferredLanguage === "en", "the refused change was made");

    step("another site's page gets nowhere: its script cannot send the header, its form arrives without the cookie");
    const other = await startOtherSite();
    const evil = await h.context.newPage();
    try {
      await evil.goto(other.url);
      const scripted = await evil.evaluate(async (target) => {
        try {
          const r = await fetch(`${target}/auth/logout`, { method: "POST", credentials: "include", headers: { "X-Credence-CSRF": "1" } });
          return `answered ${r.status}`;
        } catch {
          return "blocked";
        }
      }, base);
      expect(scripted === "blocked", `another site's scripted request with the header: ${scripted}`);
      await evil.evaluate((target) => {
        const form = document.createElement("form");
        form.method = "POST";
        form.action = `${target}/auth/logout`;
        form.enctype = "text/plain";
        document.body.append(form);
        form.submit();
      }, base);
      await evil.waitForURL(`${base}/auth/logout`);
      const answer = await evil.locator("body").innerText();
      expect(JSON.parse(answer).signedOut === false, `another site's form post to /auth/logout: ${answer}`);
    } finally {
      await evil.close();
      other.server.close();
    }
    expect((await h.inPage("GET", "/api/users/me")).status === 200, "another site's page signed the person out");

    step("sign-out ends the session on the server and in every tab");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in to Credence" }).waitFor();
    const left = (await h.context.cookies(base)).filter((c) => c.name === "credence_session");
    expect(left.length === 0, `the cookie is still there: ${JSON.stringify(left)}`);
    const revoked = await h.api("GET", "/api/users/me", undefined, token);
    expect(revoked.status === 401 && revoked.json.code === "invalid_token", `the ended session as a bearer token: ${revoked.status}`);
    await second.reload();
    await second.getByRole("heading", { name: "Sign in to Credence" }).waitFor();
    await h.checkA11y("signed out");
  } finally {
    await second.close();
  }
}
