// Real sign-in in the browser: a real OpenID provider (oidc-provider, from
// tests/oidc) and a second credence serving the client with that provider
// configured. The user, invited to two tenants, opens a deep link signed
// out, signs in at the provider, comes back to the client (the server's
// /auth/callback forwards a browser to /sign-in/callback), picks a tenant
// and lands on the page they first asked for.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Harness, startServer, webDir } from "../harness.mjs";

function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.on("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

function startProvider(clients) {
  const script = resolve(webDir, "../tests/oidc/provider.mjs");
  const child = spawn(process.execPath, [script, "--client", JSON.stringify(clients[0])], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let err = "";
  child.stderr.on("data", (c) => (err += c));
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`the OpenID provider did not start:\n${err}`)), 20000);
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
      const m = out.match(/^ISSUER (\S+)/m);
      if (m) {
        clearTimeout(timer);
        ok({ issuer: m[1], stop: () => child.kill("SIGTERM") });
      }
    });
    child.on("exit", (code) => fail(new Error(`the OpenID provider exited (${code}):\n${err}`)));
  });
}

export async function run(outer) {
  const { step, expect } = outer;
  if (!existsSync(resolve(webDir, "../tests/oidc/node_modules/oidc-provider"))) {
    throw new Error("tests/oidc/node_modules is missing (npm ci in tests/oidc; scripts/test does it)");
  }
  const work = mkdtempSync(join(tmpdir(), "credence-web-oidc-"));
  let provider;
  let server;
  try {
    step("start a real OpenID provider and a credence that signs in with it");
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    provider = await startProvider([
      { client_id: "credence-web", client_secret: "web-s3cret", redirect_uris: [`${base}/auth/callback`] },
    ]);
    const config = join(work, "oidc.json");
    writeFileSync(config, JSON.stringify({
      providers: [{ name: "testidp", issuer: provider.issuer, clientId: "credence-web", clientSecret: "web-s3cret" }],
    }));
    server = await startServer(work, ["--listen", `127.0.0.1:${port}`, "--public-url", base, "--oidc-config", config]);
    expect(server.base === base, `server at ${server.base}, expected ${base}`);

    const h = new Harness(base, outer.context);
    const page = await h.open();
    try {
      step("invite the same person to two tenants");
      const email = "jordan@example.com";
      const acme = await h.demoTenantId();
      const second = await h.newTenant("Globex Research");
      for (const tenantId of [acme, second]) {
        const token = await h.tokenFor("admin", tenantId);
        const r = await h.api("POST", "/api/users/invite", { email, role: "Member" }, token);
        expect(r.status === 201 || r.status === 200, `invite: ${r.status} ${JSON.stringify(r.json)}`);
      }

      step("a deep link, signed out, shows the sign-in page with the provider");
      await page.goto(`${base}/hubs/handbook`);
      await page.getByRole("heading", { name: "Sign in to Credence" }).waitFor();
      await h.checkA11y("sign-in with a provider");
      await page.getByRole("link", { name: "testidp" }).click();

      step("sign in at the provider (its login and consent pages)");
      await page.locator('input[name="login"]').fill(email);
      await page.locator('input[name="password"]').fill("any password");
      await page.locator('button[type="submit"]').click();
      await page.waitForURL((u) => u.pathname.startsWith("/sign-in/callback") || u.host !== new URL(base).host);
      if (!page.url().startsWith(base)) {
        // oidc-provider's consent page
        await page.locator('button[type="submit"]').click();
      }

      step("back in the client: choose a tenant");
      await page.getByRole("heading", { name: "Choose a workspace" }).waitFor();
      expect(!page.url().includes("code="), `the code stays in the address bar: ${page.url()}`);
      await h.checkA11y("tenant picker");
      const choices = await page.locator(".tenant-picker button").allInnerTexts();
      expect(choices.length === 2 && choices.includes("Globex Research"), `tenant choices: ${choices}`);
      await page.locator(".tenant-picker button", { hasText: "Globex Research" }).click();

      step("signed in, in the chosen tenant, on the page first asked for");
      await page.waitForURL(`${base}/hubs/handbook`);
      await page.getByText("jordan", { exact: false }).first().waitFor();
      const me = (await h.inPage("GET", "/api/users/me")).json;
      expect(me.tenantId === second && me.email === email, `signed in as ${JSON.stringify(me)}`);
      // The session is the HttpOnly cookie the callback set; no script sees a token.
      const session = (await outer.context.cookies(base)).find((c) => c.name === "credence_session");
      expect(session?.httpOnly && session.sameSite === "Lax" && session.value.startsWith("crd_ss_"), "no HttpOnly session cookie");
      const visible = await page.evaluate(() => document.cookie + JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
      expect(!visible.includes("crd_ss_"), `a script can read the session token: ${visible}`);

      step("switch to the other tenant from the header");
      await page.locator("select.tenant-switcher").selectOption(acme);
      await page.waitForFunction(async (want) => {
        const r = await fetch("/api/users/me");
        return (await r.json()).tenantId === want;
      }, acme);
      await page.getByRole("heading", { name: "Hubs" }).waitFor();
      await page.waitForFunction(
        () => document.querySelector("select.tenant-switcher option:checked")?.textContent === "Acme Corporation",
      );
      await h.checkA11y("hubs after a tenant switch");

      step("someone in no workspace yet signs in: the page says so, offers to create one, and sign-out");
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("heading", { name: "Sign in to Credence" }).waitFor();
      await outer.context.clearCookies(); // the provider's session too: a new person signs in
      await page.getByRole("link", { name: "testidp" }).click();
      await page.locator('input[name="login"]').fill("nobody@example.com");
      await page.locator('input[name="password"]').fill("any password");
      await page.locator('button[type="submit"]').click();
      await page.waitForURL((u) => u.pathname.startsWith("/sign-in/callback") || u.host !== new URL(base).host);
      if (!page.url().startsWith(base)) await page.locator('button[type="submit"]').click();
      await page.getByRole("heading", { name: "No workspace yet" }).waitFor();
      await page.getByRole("heading", { name: "Create a workspace" }).waitFor();
      await h.checkA11y("no workspace");

      step("they create a workspace there and land in it as its owner");
      await page.getByLabel("Workspace name").fill("Nobody's Lab");
      const slug = await page.getByLabel("Short name (in addresses)").inputValue();
      expect(slug === "nobody-s-lab", `the slug offered: ${slug}`);
      await page.getByRole("button", { name: "Create a workspace" }).click();
      await page.getByRole("heading", { name: "Hubs" }).waitFor();
      // Owners see the administration links.
      await page.getByRole("navigation", { name: "Main" }).getByText("Administration").waitFor();
      const created = (await h.api("GET", "/auth/dev-tenants")).json.find((t) => t.slug === "nobody-s-lab");
      expect(created?.name === "Nobody's Lab", `the new workspace: ${JSON.stringify(created)}`);
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("heading", { name: "Sign in to Credence" }).waitFor();

      step("an API client still gets JSON from /auth/callback (no redirect without text/html)");
      const r = await fetch(`${base}/auth/callback?code=x&state=y`, { headers: { Accept: "application/json" }, redirect: "manual" });
      expect(r.status === 400, `GET /auth/callback as an API client: ${r.status}`);
      h.assertNoProblems();
    } finally {
      await page.close().catch(() => {});
    }
  } finally {
    server?.stop();
    provider?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
