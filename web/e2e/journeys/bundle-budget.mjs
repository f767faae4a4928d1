// The initial-JavaScript budget (issue 17: at most 250 KB): every script the
// browser loads to show the hubs page to a signed-in user, counted as the
// bytes Chromium received from the real server (the DevTools protocol's
// Network.loadingFinished encodedDataLength: headers and the body as sent,
// compressed when the server compressed it), with the cache off, as on a
// first visit. Issue 26: each script must arrive compressed (Brotli or
// gzip). The timing budgets are measured by bench/budgets.mjs
// (docs/performance.md), not asserted here.
export async function run(h) {
  const { page, step, expect } = h;
  step("sign in and load the hubs page with the cache off, recording what each script cost on the wire");
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  const requests = new Map(); // requestId -> {url, type, encoding, decoded, transferred}
  cdp.on("Network.responseReceived", (e) => {
    if (!e.response.url.startsWith(h.base)) return;
    const header = Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === "content-encoding");
    requests.set(e.requestId, { url: e.response.url, type: e.type, encoding: header?.[1] ?? "", decoded: 0, transferred: -1 });
  });
  cdp.on("Network.dataReceived", (e) => {
    const r = requests.get(e.requestId);
    if (r) r.decoded += e.dataLength;
  });
  cdp.on("Network.loadingFinished", (e) => {
    const r = requests.get(e.requestId);
    if (r) r.transferred = e.encodedDataLength;
  });
  await h.signIn("viewer", await h.demoTenantId(), "/hubs");
  await page.getByRole("heading", { name: "Hubs" }).waitFor();
  await page.waitForLoadState("networkidle");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: false });
  await cdp.detach();

  // By URL: the sign-in page loads the same shell first; the hubs page's
  // load is the one kept.
  const scripts = new Map();
  for (const r of requests.values()) if (r.type === "Script" && r.transferred >= 0) scripts.set(r.url, r);
  const transferred = [...scripts.values()].reduce((sum, r) => sum + r.transferred, 0);
  const decoded = [...scripts.values()].reduce((sum, r) => sum + r.decoded, 0);
  const encodings = [...new Set([...scripts.values()].map((r) => r.encoding || "none"))].join(", ");
  step(`${scripts.size} scripts: ${(transferred / 1024).toFixed(1)} KiB transferred (${encodings}), ${(decoded / 1024).toFixed(1)} KiB decoded`);
  expect(scripts.size > 0, "no scripts seen");
  for (const r of scripts.values())
    expect(r.encoding === "br" || r.encoding === "gzip", `${r.url} arrived with Content-Encoding "${r.encoding}"`);
  expect(transferred <= 250 * 1000, `initial JavaScript is ${transferred} bytes transferred, over the 250 KB budget`);
  const editorLoaded = [...scripts.keys()].some((u) => /Editor-/.test(u));
  expect(!editorLoaded, "the editor's chunk (TipTap) is loaded on the hubs page");
}
