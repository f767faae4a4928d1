// @credence/client against a real server (ctest clients_typescript): the
// credentials, the typed answers and errors, the retries and the token
// refresh, as an application sees them.
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { after, before, test } from "node:test";
import {
  AuthenticationError,
  CredenceHttpError,
  CredenceNetworkError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  ServiceUnavailableError,
  TokenError,
  ValidationError,
  createCredenceClient,
  unwrap,
  type FilterSourcesAnswer,
} from "@credence/client";
import { call, disclaimer, expectStatus, handbook, recordingFetch, startFaultProxy, startWorld, type World } from "./support/world.js";

let world: World;

before(async () => {
  // Access tokens live 3 s, so that refreshing before expiry shows within the test.
  world = await startWorld(["--test-clock", "--token-ttl-seconds", "3"]);
});

after(async () => {
  await world?.stop();
});

const sources = handbook.map((d) => d.sourceId);

test("an app key: whoami, a typed filter-sources answer, the decision in the ledger", async () => {
  const client = createCredenceClient({ baseUrl: world.base, apiKey: world.appKey.clientSecret });
  const me = await client.whoami();
  assert.equal(me.appId, world.appId);
  assert.deepEqual(me.scopes, ["trust:evaluate", "trust:read"]);

  const answer: FilterSourcesAnswer = await client.filterSources(sources, { actorType: "ai_agent", actorLabel: "client test" });
  assert.equal(answer.overallDecision, "block");
  assert.equal(answer.allowed.length, 18);
  assert.deepEqual(
    answer.warned.map((d) => [d.sourceId, d.reasons.map((r) => r.code), d.requirements]),
    [["https://wiki.example.com/pricing-faq", ["connected_never_reviewed"], { citationRequired: true, disclaimerRequired: true, disclaimerText: disclaimer }]],
  );
  assert.deepEqual(
    answer.blocked.map((d) => [d.sourceId, d.escalated, d.reasons.map((r) => r.code)]),
    [["kb:runbooks/database-failover", true, ["secrets_present"]]],
  );

  const record = await client.decision(answer.decisionId);
  assert.equal(record.endpoint, "FilterSources");
  assert.equal(record.appId, world.appId);
  assert.equal(record.keyId, world.appKey.keyId);
  assert.equal(record.channel, "", "no channel was sent: the ledger keeps the request's, the app's applied");
  assert.deepEqual(record.counts, { total: 20, allowed: 18, warned: 1, blocked: 1, escalated: 1 });

  const evaluated = await client.evaluate(["kb:handbook/expenses"]);
  assert.equal(evaluated.results[0]?.decision, "allow");
  assert.notEqual(evaluated.decisionId, answer.decisionId);
});

test("the generated client reaches every route, typed; unwrap raises its errors", async () => {
  const client = createCredenceClient({ baseUrl: world.base, apiKey: world.appKey.clientSecret });
  const source = unwrap(await client.api.GET("/api/trust/sources", { params: { query: { sourceId: "kb:handbook/vpn" } } }));
  assert.equal(source.resolved, true);
  assert.equal(source.title, "VPN setup");

  const denied = await client.api.GET("/api/hubs");
  assert.equal(denied.response.status, 403);
  assert.throws(() => unwrap(denied), (e: unknown) => e instanceof ForbiddenError && e.code === "machine_credentials_not_allowed");

  // The types follow /openapi.json: an unknown route or a wrong body does not compile.
  // @ts-expect-error not a route of the API
  void client.api.GET("/api/trust/nothing-here");
  // @ts-expect-error sources is an array of strings
  void client.api.POST("/api/trust/filter-sources", { body: { sources: "kb:handbook/vpn" } });
});

test("problem+json answers are typed exceptions with the code, the fields and the request id", async () => {
  const client = createCredenceClient({ baseUrl: world.base, apiKey: world.appKey.clientSecret });

  const empty = await client.filterSources([]).catch((e: unknown) => e);
  assert.ok(empty instanceof ValidationError, String(empty));
  assert.equal(empty.status, 400);
  assert.equal(empty.code, "no_sources");
  assert.deepEqual(empty.fieldErrors, [{ field: "sources", message: "must not be empty" }]);
  assert.match(empty.message, /^400 no_sources: .* sources: must not be empty\. \(POST \/api\/trust\/filter-sources, request [0-9a-f-]{36}\)$/);
  assert.match(empty.requestId ?? "", /^[0-9a-f-]{36}$/);

  const tooMany = await client.filterSources(Array.from({ length: 101 }, (_, i) => `kb:doc-${i}`)).catch((e: unknown) => e);
  assert.ok(tooMany instanceof ValidationError);
  assert.equal(tooMany.code, "too_many_sources");

  const unknown = await client.decision("01a20000-0000-7000-8000-000000000000").catch((e: unknown) => e);
  assert.ok(unknown instanceof NotFoundError);
  assert.equal(unknown.code, "not_found");

  const readOnly = await world.mintKey(["trust:read"]);
  const reader = createCredenceClient({ baseUrl: world.base, apiKey: readOnly.clientSecret });
  const scope = await reader.filterSources(["kb:handbook/vpn"]).catch((e: unknown) => e);
  assert.ok(scope instanceof ForbiddenError);
  assert.equal(scope.code, "insufficient_scope");
  assert.equal(scope.scope, "trust:evaluate");

  // A key with a wrong character fails its checksum before any lookup.
  const mangled = world.appKey.clientSecret.slice(0, -1) + (world.appKey.clientSecret.endsWith("A") ? "B" : "A");
  const refused = await createCredenceClient({ baseUrl: world.base, apiKey: mangled })
    .whoami()
    .catch((e: unknown) => e);
  assert.ok(refused instanceof AuthenticationError);
  assert.equal(refused.code, "invalid_token");
});

test("client credentials: one token for many requests, replaced before it expires", async () => {
  const recorder = recordingFetch();
  const client = createCredenceClient({
    baseUrl: world.base,
    clientCredentials: { clientId: world.appKey.clientId, clientSecret: world.appKey.clientSecret },
    fetch: recorder.fetch,
  });
  const [a, b, c] = await Promise.all([client.whoami(), client.whoami(), client.filterSources(["kb:handbook/vpn"])]);
  assert.equal(a.appId, world.appId);
  assert.equal(b.keyId, world.appKey.keyId);
  assert.equal(c.allowed.length, 1);
  assert.equal(recorder.count("/connect/token"), 1, "three concurrent requests share one token");

  // The token lives 3 s; the client replaces it a quarter of its life early.
  await new Promise((ok) => setTimeout(ok, 2_400));
  await client.whoami();
  assert.equal(recorder.count("/connect/token"), 2);
  assert.deepEqual(recorder.exchanges.filter((e) => e.status === 401), [], "no request went out with a lapsed token");

  const narrow = createCredenceClient({
    baseUrl: world.base,
    clientCredentials: { clientId: world.appKey.clientId, clientSecret: world.appKey.clientSecret, scope: ["trust:read"] },
  });
  assert.deepEqual((await narrow.whoami()).scopes, ["trust:read"]);
});

test("client credentials: a token the server no longer accepts is replaced once", async () => {
  const recorder = recordingFetch();
  const client = createCredenceClient({
    baseUrl: world.base,
    clientCredentials: { clientId: world.appKey.clientId, clientSecret: world.appKey.clientSecret },
    fetch: recorder.fetch,
  });
  await client.whoami();
  // The server's clock moves an hour ahead: the token, valid by the client's clock, has expired there.
  await expectStatus(call(world.base, "PUT", "/dev/clock", { body: { now: new Date(Date.now() + 3_600_000).toISOString() } }), 200, "move the clock");
  try {
    const me = await client.whoami();
    assert.equal(me.appId, world.appId);
    assert.deepEqual(
      recorder.exchanges.map((e) => `${e.path} ${e.status}`),
      ["/connect/token 200", "/api/trust/whoami 200", "/api/trust/whoami 401", "/connect/token 200", "/api/trust/whoami 200"],
    );
  } finally {
    await expectStatus(call(world.base, "DELETE", "/dev/clock"), 200, "reset the clock");
  }
});

test("client credentials refused: a TokenError with the OAuth error", async () => {
  const client = createCredenceClient({
    baseUrl: world.base,
    clientCredentials: { clientId: world.appKey.clientId, clientSecret: "crd_sk_" + "A".repeat(38) },
  });
  const error = await client.whoami().catch((e: unknown) => e);
  assert.ok(error instanceof TokenError, String(error));
  assert.equal(error.status, 401);
  assert.equal(error.error, "invalid_client");

  const badScope = createCredenceClient({
    baseUrl: world.base,
    clientCredentials: { clientId: world.appKey.clientId, clientSecret: world.appKey.clientSecret, scope: "trust:usage" },
  });
  const scopeError = await badScope.whoami().catch((e: unknown) => e);
  assert.ok(scopeError instanceof TokenError);
  assert.equal(scopeError.error, "invalid_scope");
});

test("429: waits as Retry-After says, then succeeds; without retries, a RateLimitedError", async () => {
  // An app limited to one request a second (its keys' requests together).
  const key = await world.mintKey(["trust:evaluate", "trust:read"], {
    name: "Throttled assistant",
    channel: "employee_chat",
    risk: "low",
    rateLimit: { requestsPerSecond: 1, burst: 1 },
  });
  const recorder = recordingFetch();
  const client = createCredenceClient({ baseUrl: world.base, apiKey: key.clientSecret, fetch: recorder.fetch });
  await client.filterSources(["kb:handbook/vpn"]);
  const start = performance.now();
  await client.filterSources(["kb:handbook/vpn"]);
  const waited = performance.now() - start;
  assert.deepEqual(recorder.exchanges.map((e) => e.status), [200, 429, 200]);
  assert.ok(waited >= 900, `waited ${waited} ms; Retry-After said 1 s`);

  const impatient = createCredenceClient({ baseUrl: world.base, apiKey: key.clientSecret, retry: false });
  const error = await impatient.filterSources(["kb:handbook/vpn"]).catch((e: unknown) => e);
  assert.ok(error instanceof RateLimitedError, String(error));
  assert.equal(error.code, "rate_limited");
  assert.equal(error.policy, "app");
  assert.equal(error.retryAfterMs, 1000);
});

test("503: retried when Retry-After (an HTTP date) comes, not when it asks for longer than maxDelayMs", { timeout: 30_000 }, async () => {
  let refusals = 0;
  const unavailable = (retryAfter: string) => ({
    status: 503,
    headers: { "content-type": "application/problem+json", "retry-after": retryAfter },
    body: JSON.stringify({
      type: "urn:credence:problem:storage_unavailable",
      title: "Service Unavailable",
      status: 503,
      detail: "The database cannot be reached.",
      code: "storage_unavailable",
    }),
  });
  let mode: "once" | "long" | "plain" = "once";
  const proxy = await startFaultProxy(world.base, (path) => {
    if (!path.startsWith("/api/trust/filter-sources")) return undefined;
    if (mode === "once" && refusals++ === 0) return unavailable(new Date(Date.now() + 1_500).toUTCString());
    if (mode === "long") return unavailable("120");
    if (mode === "plain") return { status: 503, headers: { "content-type": "text/plain" }, body: "no server is available" };
    return undefined;
  });
  try {
    const client = createCredenceClient({ baseUrl: proxy.base, apiKey: world.appKey.clientSecret });
    const start = performance.now();
    const answer = await client.filterSources(["kb:handbook/vpn"]);
    assert.equal(answer.allowed.length, 1);
    assert.equal(proxy.seen.length, 2);
    assert.ok(performance.now() - start >= 400, "it waited for the date");

    mode = "long";
    const started = performance.now();
    const error = await client.filterSources(["kb:handbook/vpn"]).catch((e: unknown) => e);
    assert.ok(error instanceof ServiceUnavailableError, String(error));
    assert.equal(error.code, "storage_unavailable");
    assert.equal(error.retryAfterMs, 120_000);
    assert.ok(performance.now() - started < 1_000, "a wait past maxDelayMs is not made");

    mode = "plain";
    const plain = await createCredenceClient({ baseUrl: proxy.base, apiKey: world.appKey.clientSecret, retry: { maxRetries: 1, baseDelayMs: 10 } })
      .filterSources(["kb:handbook/vpn"])
      .catch((e: unknown) => e);
    assert.ok(plain instanceof CredenceHttpError && !(plain instanceof ServiceUnavailableError));
    assert.equal(plain.status, 503);
    assert.equal(plain.body, "no server is available");
  } finally {
    await proxy.close();
  }
});

test("no server: a CredenceNetworkError; bad options: a TypeError", async () => {
  const port = await new Promise<number>((ok) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const address = s.address();
      s.close(() => ok(typeof address === "object" && address ? address.port : 0));
    });
  });
  const error = await createCredenceClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: world.appKey.clientSecret })
    .whoami()
    .catch((e: unknown) => e);
  assert.ok(error instanceof CredenceNetworkError, String(error));
  assert.match(error.message, new RegExp(`^GET http://127\\.0\\.0\\.1:${port}/api/trust/whoami: `));

  assert.throws(() => createCredenceClient({ baseUrl: "credence.example.com" }), /baseUrl must be an absolute http\(s\) URL/);
  assert.throws(
    () => createCredenceClient({ baseUrl: world.base, apiKey: "crd_sk_x", accessToken: "y" }),
    /give one of apiKey, clientCredentials and accessToken/,
  );
});
