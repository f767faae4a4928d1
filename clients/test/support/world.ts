// What every client test starts from: a real `credence` in development mode,
// a tenant of its own with a push connector holding a 20-document handbook
// (18 reviewed documents that are allowed, one never reviewed that warns, one
// carrying a private key that is blocked and escalated), and an AI
// application registered for the employee chat with its key.
import { startCredence, type CredenceProcess } from "#server";
import type { FetchFunction } from "@credence/client";

export interface HandbookDocument {
  sourceId: string;
  title: string;
  content: string;
  expected: "allow" | "warn" | "block";
}

const topics: [string, string, string][] = [
  ["expenses", "Expense policy", "Submit receipts for travel and meals within 30 days; the expense tool reimburses within a week."],
  ["travel", "Booking travel", "Book flights and hotels through the travel desk; economy class below six hours of flight."],
  ["parental-leave", "Parental leave", "Parents take up to 16 weeks of paid leave, in one block or split over the first year."],
  ["laptops", "Laptop refresh", "Laptops are replaced every three years; request one from IT a month before."],
  ["vpn", "VPN setup", "Install the VPN client from the software centre and sign in with your company account."],
  ["passwords", "Password rules", "Use a password manager; passwords are at least 14 characters and never reused."],
  ["on-call", "On-call rota", "Engineers join the on-call rota after three months; shifts last one week."],
  ["office-hours", "Office hours", "The offices open at 7:00 and close at 20:00 on working days."],
  ["holidays", "Holiday calendar", "Public holidays follow the office's country; the calendar is on the intranet."],
  ["code-review", "Code review", "Every change is reviewed by one engineer who did not write it."],
  ["incidents", "Incident reports", "Write an incident report within two working days of the incident's end."],
  ["refunds", "Customer refunds", "Support may refund up to 200 euros without approval; above that a manager approves."],
  ["security-training", "Security training", "Everyone completes the security training in their first month and every year."],
  ["remote-work", "Remote work", "Work remotely up to three days a week; agree the days with your team."],
  ["onboarding", "Onboarding checklist", "New colleagues get accounts, a laptop and a buddy on their first day."],
  ["benefits", "Benefits enrolment", "Enrol in the health plan within 30 days of joining or at the yearly window."],
  ["purchases", "Purchase orders", "Purchases above 1,000 euros need a purchase order approved by finance."],
  ["meeting-rooms", "Meeting rooms", "Book meeting rooms in the calendar; release them when a meeting is cancelled."],
];

const privateKey = [
  "-----BEGIN RSA PRIVATE KEY-----",
  "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u",
  "-----END RSA PRIVATE KEY-----",
].join("\n");

/** The 20 documents, with the source id each is retrieved under. */
export const handbook: HandbookDocument[] = [
  ...topics.map(([slug, title, content]): HandbookDocument => ({ sourceId: `kb:handbook/${slug}`, title, content, expected: "allow" })),
  // Resolved by its URL (the URL form of a source id, docs/trust.md "Sources").
  {
    sourceId: "https://wiki.example.com/pricing-faq",
    title: "Pricing FAQ (draft)",
    content: "Draft answers to pricing questions: discounts, annual plans and what the database tier costs.",
    expected: "warn",
  },
  {
    sourceId: "kb:runbooks/database-failover",
    title: "Database failover runbook",
    content: `To fail over the database, promote the standby and connect with this key:\n${privateKey}`,
    expected: "block",
  },
];

export const disclaimer = "Answers from the handbook are not legal advice; check with HR.";

export interface Json {
  status: number;
  json: any;
  headers: Headers;
}

export async function call(
  base: string,
  method: string,
  path: string,
  options: { token?: string; apiKey?: string; body?: unknown } = {},
): Promise<Json> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.apiKey) headers["x-api-key"] = options.apiKey;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(base + path, {
    method,
    headers,
    body: options.body === undefined ? null : JSON.stringify(options.body),
  });
  const text = await response.text();
  let json: unknown = text;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: response.status, json, headers: response.headers };
}

export async function expectStatus(answer: Promise<Json>, status: number, what: string): Promise<any> {
  const a = await answer;
  if (a.status !== status) throw new Error(`${what}: ${a.status} ${JSON.stringify(a.json)}`);
  return a.json;
}

export interface AppKey {
  keyId: string;
  clientId: string;
  clientSecret: string;
}

export interface World {
  server: CredenceProcess;
  base: string;
  tenantId: string;
  adminToken: string;
  appId: string;
  appKey: AppKey;
  /** Mints another key of the app, or of a new app registered with `app`. */
  mintKey(scopes: string[], app?: Record<string, unknown>): Promise<AppKey & { appId: string }>;
  stop(): Promise<void>;
}

function isoDaysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString();
}

export async function startWorld(args: string[] = []): Promise<World> {
  // The key's own rate limit is off so that the latency runs measure
  // requests, not waits; the 429 test uses an app's limit.
  const server = await startCredence(["--dev", "--rate-limit-key-rps", "0", ...args]);
  try {
    const base = server.base;
    const slug = `clients-${Math.random().toString(36).slice(2, 8)}`;
    const tenant = await expectStatus(
      call(base, "POST", "/api/tenant/create", { body: { name: "Client tests", slug, enabledLanguages: ["en"] } }),
      201,
      "create the tenant",
    );
    const login = await expectStatus(
      call(base, "POST", "/auth/dev-login", { body: { persona: "admin", tenantId: tenant.id } }),
      200,
      "sign in as admin",
    );
    const adminToken: string = login.token;
    const me = await expectStatus(call(base, "GET", "/api/users/me", { token: adminToken }), 200, "who is admin");

    const connector = await expectStatus(
      call(base, "POST", "/trust-admin/connectors", { token: adminToken, body: { key: "kb", kind: "push" } }),
      201,
      "create the push connector",
    );
    const pushKey = await expectStatus(
      call(base, "POST", "/apikeys", {
        token: adminToken,
        body: { name: "handbook sync", scopes: ["connector:push"], connectorId: connector.id },
      }),
      201,
      "mint the push key",
    );
    for (const doc of handbook) {
      const url = doc.sourceId.startsWith("https://") ? doc.sourceId : null;
      const externalId = url ? "handbook/pricing-faq" : doc.sourceId.slice("kb:".length);
      const body: Record<string, unknown> = {
        title: doc.title,
        content: doc.content,
        url,
        ownerEmail: me.email,
        updatedAt: isoDaysFromNow(-2),
      };
      if (doc.expected !== "warn") body.reviewedAt = isoDaysFromNow(-1);
      await expectStatus(
        call(base, "PUT", `/api/connectors/kb/documents?externalId=${encodeURIComponent(externalId)}`, {
          apiKey: pushKey.clientSecret,
          body,
        }),
        201,
        `push ${doc.sourceId}`,
      );
    }

    const registerApp = async (fields: Record<string, unknown>) =>
      (await expectStatus(call(base, "POST", "/trust-admin/apps", { token: adminToken, body: fields }), 201, "register the app")).id as string;
    const appId = await registerApp({
      name: "Handbook assistant",
      channel: "employee_chat",
      risk: "medium",
      defaultPolicy: { disclaimerText: disclaimer },
    });
    const mint = async (forApp: string, scopes: string[]) => {
      const key = await expectStatus(
        call(base, "POST", `/trust-admin/apps/${forApp}/keys`, {
          token: adminToken,
          body: { name: "retriever", expiresAt: isoDaysFromNow(30), scopes },
        }),
        201,
        "mint the app key",
      );
      return { appId: forApp, keyId: key.id as string, clientId: key.clientId as string, clientSecret: key.clientSecret as string };
    };
    const appKey = await mint(appId, ["trust:evaluate", "trust:read"]);
    return {
      server,
      base,
      tenantId: tenant.id,
      adminToken,
      appId,
      appKey,
      mintKey: async (scopes, app) => mint(app ? await registerApp(app) : appId, scopes),
      stop: () => server.stop(),
    };
  } catch (error) {
    console.error(server.log().slice(-4000));
    await server.stop();
    throw error;
  }
}

export interface Exchange {
  method: string;
  path: string;
  status: number;
}

/** A fetch that records what was sent and answered, for `CredenceClientOptions.fetch`. */
export function recordingFetch(): { fetch: FetchFunction; exchanges: Exchange[]; count(path: string): number } {
  const exchanges: Exchange[] = [];
  return {
    exchanges,
    fetch: async (request) => {
      const response = await fetch(request);
      exchanges.push({ method: request.method, path: new URL(request.url).pathname, status: response.status });
      return response;
    },
    count: (path) => exchanges.filter((e) => e.path === path).length,
  };
}

/** Median and 95th percentile, in milliseconds. */
export function summary(samples: number[]): { median: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { median: at(0.5), p95: at(0.95) };
}

/** How many timed runs the latency measurements make (CREDENCE_CLIENTS_BENCH_RUNS; few in the test run). */
export function benchRuns(): number {
  const runs = Number(process.env.CREDENCE_CLIENTS_BENCH_RUNS ?? 40);
  return Number.isInteger(runs) && runs > 0 ? runs : 40;
}

/**
 * The latency a wrapper adds: `bare` (the framework's retrieval alone) and
 * `wrapped` (the same through Credence) run alternately, after a warm-up,
 * `benchRuns()` times each; `direct` is filter-sources alone for the same
 * sources, so that the wrapper's own work is what is left. Prints one line
 * (docs/performance.md quotes it) and answers the medians.
 */
export async function measureAddedLatency(
  label: string,
  steps: { bare: () => Promise<unknown>; wrapped: () => Promise<unknown>; direct: () => Promise<unknown> },
): Promise<{ bare: number; wrapped: number; added: number; addedP95: number; direct: number }> {
  const time = async (step: () => Promise<unknown>) => {
    const start = performance.now();
    await step();
    return performance.now() - start;
  };
  for (let i = 0; i < 10; i++) {
    await steps.bare();
    await steps.wrapped();
    await steps.direct();
  }
  const runs = benchRuns();
  const bare: number[] = [];
  const wrapped: number[] = [];
  const direct: number[] = [];
  const added: number[] = [];
  for (let i = 0; i < runs; i++) {
    const b = await time(steps.bare);
    const w = await time(steps.wrapped);
    direct.push(await time(steps.direct));
    bare.push(b);
    wrapped.push(w);
    added.push(w - b);
  }
  const ms = (x: number) => `${x.toFixed(2)} ms`;
  const s = { bare: summary(bare), wrapped: summary(wrapped), added: summary(added), direct: summary(direct) };
  console.log(
    `latency (${label}, 20 documents, ${runs} runs, medians): retrieval alone ${ms(s.bare.median)}, ` +
      `through Credence ${ms(s.wrapped.median)}, added ${ms(s.added.median)} (p95 ${ms(s.added.p95)}); ` +
      `filter-sources alone ${ms(s.direct.median)}`,
  );
  return { bare: s.bare.median, wrapped: s.wrapped.median, added: s.added.median, addedP95: s.added.p95, direct: s.direct.median };
}

/**
 * An HTTP proxy on loopback in front of the real server that answers the
 * requests `refuse` picks itself (with what it returns) and forwards the
 * rest: the 503s a load balancer or a failing-over database gives, which a
 * single test server does not.
 */
export async function startFaultProxy(
  target: string,
  refuse: (path: string) => { status: number; headers: Record<string, string>; body: string } | undefined,
): Promise<{ base: string; seen: string[]; close(): Promise<void> }> {
  const { createServer } = await import("node:http");
  const seen: string[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    seen.push(path);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const refusal = refuse(path);
      if (refusal) {
        res.writeHead(refusal.status, refusal.headers).end(refusal.body);
        return;
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === "string" && name !== "host" && name !== "connection") headers[name] = value;
      }
      const body = chunks.length ? Buffer.concat(chunks) : null;
      const answer = await fetch(target + path, { method: req.method ?? "GET", headers, body });
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!["content-encoding", "content-length", "transfer-encoding", "connection"].includes(name)) out[name] = value;
      });
      res.writeHead(answer.status, out).end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("the proxy has no port");
  return {
    base: `http://127.0.0.1:${address.port}`,
    seen,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
