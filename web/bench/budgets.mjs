// The web client's budgets, measured in headless Chromium against a real
// credence (docs/performance.md, "Web client"). A benchmark, not a test:
// it prints figures; the deterministic one (initial JavaScript) is also
// asserted by the e2e journey bundle-budget.
//
//   cd web && npx vite build && node bench/budgets.mjs [runs=7]
//
// 1. Initial JavaScript: every script the browser loads to show the hubs
//    page to a signed-in user, as bytes Chromium received from the server
//    with the cache off (the DevTools protocol's encodedDataLength; the
//    server sends the build's precompressed .br or .gz), summed.
// 2. The 200-block entry of bench/kb.sh (and its Spanish translation):
//    navigation start to all 200 blocks in the document and the main thread
//    idle (a frame rendered, then a task run), in the reader and in the
//    editor. Median and worst of `runs` fresh navigations.
// 3. Typing 80 characters into that entry's editor (one key every 40 ms):
//    frame intervals from requestAnimationFrame (a frame over 50 ms counts
//    as dropped, i.e. three or more 60 Hz frames missed) and the Event
//    Timing API's longest keystroke (input to next paint).
import { Harness, launchBrowser, makeWorkDir, removeWorkDir, startServer } from "../e2e/harness.mjs";

const runs = Number(process.argv[2] ?? 7);
const { chromium } = await import("playwright-core");
const work = makeWorkDir();
const server = await startServer(work);
const context = await launchBrowser(chromium, work);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(0)} ms`;

try {
  const h = new Harness(server.base, context);
  const page = await h.open();
  const tenantId = await h.demoTenantId();
  const token = await h.tokenFor("admin", tenantId);

  // The bench/kb.sh entry: 200 paragraphs, a Spanish translation of each.
  await h.api("POST", "/api/hubs", { key: "perf", name: "Perf", defaultExpiryDays: 90 }, token);
  const texts = Array.from({ length: 200 }, (_, i) => `Block ${i} of the performance entry, with a sentence of ordinary length in it.`);
  const doc = (ts, ids) =>
    JSON.stringify({
      type: "doc",
      content: ts.map((t, i) => ({ type: "paragraph", ...(ids ? { attrs: { blockId: ids[i] } } : {}), content: [{ type: "text", text: t }] })),
    });
  const created = await h.api("POST", "/api/entries",
    { hubKey: "perf", key: "big", originalLanguage: "en", title: "Big", content: doc(texts) }, token);
  const entryId = created.json.id;
  const ids = JSON.parse(created.json.content).content.map((n) => n.attrs.blockId);
  await h.api("POST", `/api/entries/${entryId}/translations/es`,
    { title: "Big es", content: doc(texts.map((t) => `[es] ${t}`), ids) }, token);

  // 1. Initial JavaScript.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  const loads = new Map();
  cdp.on("Network.responseReceived", (e) => {
    if (e.type === "Script" && e.response.url.startsWith(server.base))
      loads.set(e.requestId, { url: e.response.url, decoded: 0, transferred: 0 });
  });
  cdp.on("Network.dataReceived", (e) => loads.has(e.requestId) && (loads.get(e.requestId).decoded += e.dataLength));
  cdp.on("Network.loadingFinished", (e) => loads.has(e.requestId) && (loads.get(e.requestId).transferred = e.encodedDataLength));
  await h.signIn("admin", tenantId, "/hubs");
  await page.getByRole("heading", { name: "Hubs" }).waitFor();
  await page.waitForLoadState("networkidle");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: false });
  await cdp.detach();
  const scripts = new Map([...loads.values()].map((l) => [l.url, l])); // the hubs page's load of each
  let raw = 0;
  let sent = 0;
  for (const l of scripts.values()) {
    raw += l.decoded;
    sent += l.transferred;
  }
  console.log(`initial JavaScript (signed-in hubs page): ${scripts.size} files, ${(raw / 1024).toFixed(1)} KiB, ${(sent / 1024).toFixed(1)} KiB transferred (budget 250 KB)`);

  // 2. Rendered and interactive.
  async function timeToBlocks(path, selector) {
    const times = [];
    for (let i = 0; i < runs; i++) {
      await page.goto(`${server.base}/hubs`);
      await page.goto(`${server.base}${path}`);
      await page.waitForFunction((sel) => document.querySelectorAll(sel).length >= 200, selector, { timeout: 30000 });
      times.push(await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(() => ok(performance.now()), 0)))));
    }
    return times;
  }
  const reader = await timeToBlocks(`/entries/${entryId}?lang=es`, "section.block");
  console.log(`reader, 200-block translation: median ${ms(median(reader))}, worst ${ms(Math.max(...reader))} (budget 500 ms)`);
  await page.goto(`${server.base}/entries/${entryId}/edit`);
  const hasEditor = await page.locator(".tiptap").waitFor({ timeout: 5000 }).then(() => true, () => false);
  if (!hasEditor) {
    console.log("editor: no /entries/{id}/edit page in this build; skipped");
  } else {
    const editor = await timeToBlocks(`/entries/${entryId}/edit`, ".tiptap > *");
    console.log(`editor, 200-block entry: median ${ms(median(editor))}, worst ${ms(Math.max(...editor))} (budget 500 ms)`);

    // 3. Typing.
    await page.locator(".tiptap > p").nth(100).click();
    await page.keyboard.press("End");
    await page.evaluate(() => {
      window.__frames = [];
      window.__events = [];
      let last = performance.now();
      const tick = (now) => {
        window.__frames.push(now - last);
        last = now;
        if (!window.__stop) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__events.push({ name: e.name, duration: e.duration });
      }).observe({ type: "event", durationThreshold: 16, buffered: false });
    });
    await page.keyboard.type(" typing in a long entry without dropping frames, one key at a time...", { delay: 40 });
    const result = await page.evaluate(() => {
      window.__stop = true;
      return { frames: window.__frames.slice(1), events: window.__events };
    });
    const dropped = result.frames.filter((d) => d > 50).length;
    const worstFrame = Math.max(...result.frames);
    const worstKey = Math.max(0, ...result.events.map((e) => e.duration));
    console.log(`typing 80 keys in the 200-block editor: ${result.frames.length} frames, worst frame ${ms(worstFrame)}, frames over 50 ms: ${dropped}; slowest keystroke to paint ${ms(worstKey)} (${result.events.length} events over 16 ms)`);
  }
} finally {
  await context.close().catch(() => {});
  server.stop();
  removeWorkDir(work);
}
