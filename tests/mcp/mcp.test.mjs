// ctest mcp: the MCP server inside credence (docs/agents.md) driven by its
// real counterparts from npm against the real binary: the official
// TypeScript SDK's client (@modelcontextprotocol/sdk, revision 2025-11-25,
// also its client-credentials OAuth flow) and the MCP Inspector's
// command-line mode (`npx @modelcontextprotocol/inspector --cli`, both eras;
// --protocol-era modern speaks the stateless 2026-07-28). Node's test runner.
//
//   CREDENCE_BINARY=build/release/src/app/credence node --test tests/mcp/mcp.test.mjs
// (with CREDENCE_MCP_DATABASE=postgresql://... on PostgreSQL).
// `npm ci` in tests/mcp first (scripts/test does it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const BINARY = process.env.CREDENCE_BINARY;
const ALLOWED_ORIGIN = 'https://agents.example';

let server;
let work;
let base;
const world = {};

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

async function call(method, path, { token, body, headers = {} } = {}) {
  const h = { ...headers };
  if (token) h.authorization = `Bearer ${token}`;
  if (body !== undefined) h['content-type'] = 'application/json';
  const r = await fetch(base + path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: r.status, headers: r.headers, text, json };
}

async function ok(method, path, options, status = 200) {
  const r = await call(method, path, options);
  assert.equal(r.status, status, `${method} ${path}: ${r.text}`);
  return r.json;
}

function doc(...paragraphs) {
  return JSON.stringify({
    type: 'doc',
    content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
  });
}

async function tenant(slug) {
  const created = await ok('POST', '/api/tenant/create', { body: { name: `Tenant ${slug}`, slug, enabledLanguages: ['en', 'es'] } }, 201);
  const tokens = {};
  for (const persona of ['admin', 'editor']) {
    tokens[persona] = (await ok('POST', '/auth/dev-login', { body: { persona, tenantId: created.id } })).token;
  }
  await ok('POST', '/api/hubs', { token: tokens.admin, body: { key: 'kb', name: 'KB', defaultExpiryDays: 365, defaultOrgRole: 'Editor' } }, 201);
  return { id: created.id, tokens };
}

async function entry(t, key, title, texts, { publish = true, review = false } = {}) {
  const e = await ok('POST', '/api/entries', {
    token: t.tokens.editor,
    body: { hubKey: 'kb', key, originalLanguage: 'en', title, content: doc(...texts) },
  }, 201);
  if (publish) await ok('POST', `/api/entries/${e.id}/publish`, { token: t.tokens.editor, body: {} });
  if (review) await ok('POST', `/api/entries/${e.id}/review`, { token: t.tokens.editor, body: { reviewType: 'FullReview', timeSpentSeconds: 60 } });
  return e.id;
}

async function app(t, name) {
  const a = await ok('POST', '/trust-admin/apps', { token: t.tokens.admin, body: { name, channel: 'internal', risk: 'low' } }, 201);
  const expiresAt = new Date(Date.now() + 30 * 86400e3).toISOString();
  const key = await ok('POST', `/trust-admin/apps/${a.id}/keys`, { token: t.tokens.admin, body: { name: 'prod', expiresAt } }, 201);
  return { id: a.id, keyId: key.id, clientId: key.clientId, secret: key.clientSecret };
}

async function connect(headers, options = {}) {
  const client = new Client({ name: 'credence-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers }, ...options });
  await client.connect(transport);
  return { client, transport };
}

// The Inspector's CLI, run as a person would: npx, from this folder's
// node_modules (never fetched). Resolves {code, stdout, stderr}.
function inspector(args) {
  return new Promise((resolve) => {
    execFile('npx', ['--no-install', '@modelcontextprotocol/inspector', '--cli', ...args],
      { cwd: HERE, timeout: 60_000, env: { ...process.env, HOME: work, NO_COLOR: '1' } },
      (error, stdout, stderr) => resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr }));
  });
}

function inspectorTarget(key, era) {
  return ['--transport', 'http', '--server-url', `${base}/mcp`, '--header', `X-Api-Key: ${key}`,
    '--protocol-era', era, '--format', 'json', '-q'];
}

before(async () => {
  assert.ok(BINARY, 'CREDENCE_BINARY must name the built credence binary');
  work = mkdtempSync(join(tmpdir(), 'credence-mcp-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // CREDENCE_MCP_DATABASE (a postgresql:// URL) runs the same on PostgreSQL.
  const database = process.env.CREDENCE_MCP_DATABASE ? ['--database', process.env.CREDENCE_MCP_DATABASE] : [];
  server = spawn(BINARY, ['serve', '--dev', '--listen', `127.0.0.1:${port}`, '--data-dir', join(work, 'data'),
    '--threads', '2', '--mcp-allowed-origins', ALLOWED_ORIGIN, ...database], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  server.stderr.on('data', (d) => { log = (log + d).slice(-20000); });
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch {}
    if (i > 300) throw new Error(`credence did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const a = await tenant(`mcp-a-${port}`);
  const b = await tenant(`mcp-b-${port}`);
  world.a = a;
  world.allowed = await entry(a, 'refunds', 'Refund policy', ['Refunds take five days.', 'Every refund needs a receipt.']);
  await ok('POST', `/api/entries/${world.allowed}/review`, { token: a.tokens.editor, body: { reviewType: 'FullReview', timeSpentSeconds: 60 } });
  world.warned = await entry(a, 'refund-desk', 'Refund desk hours', ['The refund desk opens at nine.']);
  world.blocked = await entry(a, 'refund-draft', 'Refund draft', ['A refund rule that is not published yet.'], { publish: false });
  world.other = await entry(b, 'refund-b', 'Refunds of tenant B', ['Tenant B refund secret.'], { review: true });
  // Enough entries for resources/list to page (50 a page).
  world.notes = [];
  for (let i = 0; i < 55; i++) world.notes.push(await entry(a, `note-${i}`, `Note ${i}`, [`Office note number ${i}.`]));
  world.app = await app(a, 'Support agent');
  world.spare = await app(a, 'Spare agent');
  world.archived = await app(a, 'Archived agent');
});

after(async () => {
  if (server) {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

test('401 challenge names the protected resource metadata; metadata per RFC 9728 and RFC 8414', async () => {
  const r = await call('POST', '/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'ping' }, headers: { accept: 'application/json, text/event-stream' } });
  assert.equal(r.status, 401);
  const challenge = r.headers.get('www-authenticate');
  assert.match(challenge, new RegExp(`^Bearer resource_metadata="${base}/\\.well-known/oauth-protected-resource/mcp"`));
  for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
    const prm = await ok('GET', path);
    assert.equal(prm.resource, `${base}/mcp`);
    assert.deepEqual(prm.authorization_servers, [base]);
  }
  const as = await ok('GET', '/.well-known/oauth-authorization-server');
  assert.equal(as.issuer, base);
  assert.equal(as.token_endpoint, `${base}/connect/token`);
  assert.deepEqual(as.grant_types_supported, ['client_credentials']);
  assert.deepEqual(as.response_types_supported, []);
  const authorize = await call('GET', '/connect/authorize?response_type=code&client_id=x');
  assert.equal(authorize.status, 400);
  assert.equal(authorize.json.error, 'unsupported_response_type');
  // GET and DELETE: a stateless server has no stream and no session.
  assert.equal((await call('GET', '/mcp', { headers: { 'x-api-key': world.app.secret } })).status, 405);
  assert.equal((await call('DELETE', '/mcp', { headers: { 'x-api-key': world.app.secret } })).status, 405);
});

test('SDK client negotiates 2025-11-25 with an app key and lists the tools with their schemas', async () => {
  const { client, transport } = await connect({ 'X-Api-Key': world.app.secret });
  try {
    assert.equal(transport.protocolVersion, '2025-11-25');
    assert.equal(client.getServerVersion().name, 'credence');
    assert.equal(transport.sessionId, undefined, 'stateless: no session id');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ['search_knowledge', 'read_entry', 'evaluate_sources']);
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object');
      assert.equal(t.outputSchema.type, 'object');
    }
  } finally {
    await client.close();
  }
  // The key as a bearer token works too.
  const bearer = await connect({ Authorization: `Bearer ${world.app.secret}` });
  await bearer.client.close();
});

test('SDK client-credentials flow: resource-bound token from the metadata, refused at REST; REST tokens refused at /mcp', async () => {
  const provider = new ClientCredentialsProvider({ clientId: world.app.clientId, clientSecret: world.app.secret, expectedIssuer: base });
  const { client } = await connect({}, { authProvider: provider });
  try {
    const r = await client.callTool({ name: 'search_knowledge', arguments: { query: 'refund' } });
    assert.equal(r.isError, false);
  } finally {
    await client.close();
  }
  const token = provider.tokens().access_token;
  const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));
  assert.equal(claims.aud, `${base}/mcp`);
  const rest = await call('GET', '/api/trust/whoami', { token });
  assert.equal(rest.status, 401, 'a token bound to /mcp is refused by the REST API');
  // A REST token (no resource) at /mcp.
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: world.app.clientId, client_secret: world.app.secret });
  const issued = await (await fetch(`${base}/connect/token`, { method: 'POST', body: form })).json();
  const refused = await call('POST', '/mcp', { token: issued.access_token, body: { jsonrpc: '2.0', id: 1, method: 'ping' }, headers: { accept: 'application/json, text/event-stream' } });
  assert.equal(refused.status, 401);
  assert.match(refused.headers.get('www-authenticate'), /resource_metadata=/);
  assert.equal((await call('GET', '/api/trust/whoami', { token: issued.access_token })).status, 200);
  // Another resource is invalid_target (RFC 8707).
  form.set('resource', 'https://elsewhere.example/mcp');
  const target = await fetch(`${base}/connect/token`, { method: 'POST', body: form });
  assert.equal(target.status, 400);
  assert.equal((await target.json()).error, 'invalid_target');
});

test('Origin other than the server\'s own or the allowed list is 403; no Origin is accepted', async () => {
  const ping = (origin) => call('POST', '/mcp', {
    body: { jsonrpc: '2.0', id: 1, method: 'ping' },
    headers: { accept: 'application/json, text/event-stream', 'x-api-key': world.app.secret, 'mcp-protocol-version': '2025-11-25', ...(origin ? { origin } : {}) },
  });
  const evil = await ping('http://evil.example');
  assert.equal(evil.status, 403);
  assert.equal(evil.json.code, 'origin_not_allowed');
  assert.equal((await ping(ALLOWED_ORIGIN)).status, 200);
  assert.equal((await ping(base)).status, 200);
  assert.equal((await ping()).status, 200);
});

test('tools: allowed, warned and blocked as the app\'s evaluate decides, each a ledger decision', async () => {
  const { client } = await connect({ 'X-Api-Key': world.app.secret });
  try {
    const search = await client.callTool({ name: 'search_knowledge', arguments: { query: 'refund', limit: 10 } });
    assert.equal(search.isError, false);
    const found = search.structuredContent;
    const ids = found.results.map((r) => r.entryId);
    assert.ok(ids.includes(world.allowed) && ids.includes(world.warned), JSON.stringify(found));
    assert.ok(!ids.includes(world.blocked), 'blocked entries are never returned');
    assert.ok(!JSON.stringify(found).includes('Refund draft'), 'not even by title');
    assert.ok(!ids.includes(world.other), 'another tenant\'s entries are not searched');
    assert.equal(found.withheld, 1);
    const allowed = found.results.find((r) => r.entryId === world.allowed);
    const warned = found.results.find((r) => r.entryId === world.warned);
    assert.equal(allowed.decision, 'allow');
    assert.equal(warned.decision, 'warn');
    assert.ok(warned.reasons.some((r) => r.code === 'never_reviewed'));
    assert.equal(typeof warned.obligations.citationRequired, 'boolean');
    // The decision is in the ledger, attributed to the app.
    const decision = await ok('GET', `/api/trust/decisions/${found.decisionId}`, { token: world.a.tokens.admin });
    assert.equal(decision.appId, world.app.id);
    assert.equal(decision.endpoint, 'Mcp');
    assert.equal(decision.sources.length, 3);

    const read = await client.callTool({ name: 'read_entry', arguments: { entryId: world.allowed } });
    assert.equal(read.isError, false);
    const resource = read.content.find((c) => c.type === 'resource').resource;
    assert.equal(resource.mimeType, 'text/markdown');
    assert.equal(resource.uri, `credence://entries/${world.allowed}`);
    assert.match(resource.text, /^# Refund policy\n\nRefunds take five days\.\n\nEvery refund needs a receipt\.\n$/);
    assert.equal(read.structuredContent.decision, 'allow');
    assert.ok((await call('GET', `/api/trust/decisions/${read.structuredContent.decisionId}`, { token: world.a.tokens.admin })).status === 200);

    const warnedRead = await client.callTool({ name: 'read_entry', arguments: { sourceId: `entry:${world.warned}` } });
    assert.equal(warnedRead.isError, false);
    assert.equal(warnedRead.structuredContent.decision, 'warn');
    assert.ok(warnedRead.structuredContent.reasons.length > 0);

    const blocked = await client.callTool({ name: 'read_entry', arguments: { entryId: world.blocked } });
    assert.equal(blocked.isError, true);
    assert.equal(blocked.structuredContent.decision, 'block');
    assert.ok(blocked.structuredContent.reasons.some((r) => r.code === 'not_published'));
    assert.ok(!blocked.content.some((c) => c.type === 'resource'), 'no content when blocked');
    assert.match(blocked.content[0].text, /not_published/);

    // Another tenant's id looks like an unknown one: blocked, nothing of it told.
    const foreign = await client.callTool({ name: 'read_entry', arguments: { entryId: world.other } });
    assert.equal(foreign.isError, true);
    assert.equal(foreign.structuredContent.title, null);
    assert.ok(!JSON.stringify(foreign).includes('Tenant B'));

    const evaluated = await client.callTool({ name: 'evaluate_sources', arguments: { sources: [`entry:${world.allowed}`, `entry:${world.blocked}`] } });
    assert.equal(evaluated.isError, false);
    const direct = await ok('POST', '/api/trust/evaluate', { headers: { 'x-api-key': world.app.secret }, body: { sources: [`entry:${world.allowed}`, `entry:${world.blocked}`] } });
    const strip = (e) => ({ ...e, decisionId: undefined, evaluatedAt: undefined });
    assert.deepEqual(strip(evaluated.structuredContent), strip(direct), 'evaluate_sources answers as POST /api/trust/evaluate');

    const bad = await client.callTool({ name: 'search_knowledge', arguments: { query: 'refund', limit: 99, colour: 'red' } });
    assert.equal(bad.isError, true);
    assert.match(bad.content[0].text, /limit/);
    assert.match(bad.content[0].text, /colour/);
  } finally {
    await client.close();
  }
});

test('resources: listed with pagination and read through the gate; blocked reads are protocol errors', async () => {
  const { client } = await connect({ 'X-Api-Key': world.app.secret });
  try {
    const uris = [];
    let pages = 0;
    let cursor;
    do {
      const page = await client.listResources(cursor ? { cursor } : {});
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    assert.ok(pages >= 2, 'more than one page');
    assert.equal(new Set(uris).size, uris.length, 'no entry listed twice');
    for (const id of world.notes) assert.ok(uris.includes(`credence://entries/${id}`));
    assert.ok(uris.includes(`credence://entries/${world.allowed}`));
    assert.ok(uris.includes(`credence://entries/${world.warned}`));
    assert.ok(!uris.includes(`credence://entries/${world.blocked}`));
    assert.ok(!uris.includes(`credence://entries/${world.other}`));
    const read = await client.readResource({ uri: `credence://entries/${world.allowed}` });
    assert.equal(read.contents[0].mimeType, 'text/markdown');
    assert.match(read.contents[0].text, /Refunds take five days/);
    await assert.rejects(client.readResource({ uri: `credence://entries/${world.blocked}` }), (e) => e.code === -31001 && /not_published/.test(e.message));
    await assert.rejects(client.readResource({ uri: `credence://entries/${world.other}` }), (e) => e.code === -32002);
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.equal(resourceTemplates[0].uriTemplate, 'credence://entries/{id}');
    await assert.rejects(client.listResources({ cursor: 'not-a-cursor' }), (e) => e.code === -32602);
  } finally {
    await client.close();
  }
});

test('Inspector CLI, modern era (2026-07-28, stateless): tools, a call, a blocked read', async () => {
  const target = inspectorTarget(world.app.secret, 'modern');
  const list = await inspector([...target, '--method', 'tools/list']);
  assert.equal(list.code, 0, list.stderr);
  assert.deepEqual(JSON.parse(list.stdout).result.tools.map((t) => t.name), ['search_knowledge', 'read_entry', 'evaluate_sources']);
  const search = await inspector([...target, '--method', 'tools/call', '--tool-name', 'search_knowledge', '--tool-args-json', '{"query":"refund"}']);
  assert.equal(search.code, 0, search.stderr);
  const result = JSON.parse(search.stdout).result;
  assert.equal(result.isError, false);
  assert.ok(result.structuredContent.results.some((r) => r.entryId === world.allowed));
  assert.equal(result.structuredContent.withheld, 1);
  const blocked = await inspector([...target, '--method', 'resources/read', '--uri', `credence://entries/${world.blocked}`]);
  assert.notEqual(blocked.code, 0);
  assert.match(blocked.stdout + blocked.stderr, /not_published|Blocked/);
});

test('Inspector CLI, legacy era (2025-11-25): read_entry and resources/list', async () => {
  const target = inspectorTarget(world.app.secret, 'legacy');
  const read = await inspector([...target, '--method', 'tools/call', '--tool-name', 'read_entry', '--tool-args-json', JSON.stringify({ entryId: world.warned })]);
  assert.equal(read.code, 0, read.stderr);
  assert.equal(JSON.parse(read.stdout).result.structuredContent.decision, 'warn');
  const list = await inspector([...target, '--method', 'resources/list']);
  assert.equal(list.code, 0, list.stderr);
  assert.ok(JSON.parse(list.stdout).result.resources.some((r) => r.uri === `credence://entries/${world.allowed}`));
});

test('version negotiation on the wire: unsupported versions get the spec\'s errors', async () => {
  const headers = { accept: 'application/json, text/event-stream', 'x-api-key': world.app.secret };
  const meta = (v) => ({ 'io.modelcontextprotocol/protocolVersion': v, 'io.modelcontextprotocol/clientCapabilities': {} });
  const modern = await call('POST', '/mcp', { headers: { ...headers, 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' }, body: { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: meta('2099-01-01') } } });
  assert.equal(modern.status, 400);
  assert.equal(modern.json.error.code, -32022);
  assert.deepEqual(modern.json.error.data.supported, ['2026-07-28', '2025-11-25']);
  const legacy = await call('POST', '/mcp', { headers: { ...headers, 'mcp-protocol-version': '2024-11-05' }, body: { jsonrpc: '2.0', id: 8, method: 'tools/list' } });
  assert.equal(legacy.status, 400);
  assert.equal(legacy.json.error.code, -32022);
  const init = await call('POST', '/mcp', { headers, body: { jsonrpc: '2.0', id: 9, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'old', version: '1' } } } });
  assert.equal(init.status, 200);
  assert.equal(init.json.result.protocolVersion, '2025-11-25', 'initialize counter-offers the revision it speaks');
  const discover = await call('POST', '/mcp', { headers: { ...headers, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' }, body: { jsonrpc: '2.0', id: 10, method: 'server/discover', params: { _meta: meta('2026-07-28') } } });
  assert.equal(discover.status, 200);
  assert.equal(discover.json.result.resultType, 'complete');
  assert.deepEqual(discover.json.result.supportedVersions, ['2026-07-28', '2025-11-25']);
  const mismatch = await call('POST', '/mcp', { headers: { ...headers, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'read_entry' }, body: { jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'search_knowledge', arguments: { query: 'x' }, _meta: meta('2026-07-28') } } });
  assert.equal(mismatch.status, 400);
  assert.equal(mismatch.json.error.code, -32020);
  const unknown = await call('POST', '/mcp', { headers: { ...headers, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'ping' }, body: { jsonrpc: '2.0', id: 12, method: 'ping', params: { _meta: meta('2026-07-28') } } });
  assert.equal(unknown.status, 404, 'ping is gone in 2026-07-28');
  assert.equal(unknown.json.error.code, -32601);
  assert.equal((await call('POST', '/mcp', { headers: { ...headers, accept: 'application/json' }, body: { jsonrpc: '2.0', id: 1, method: 'ping' } })).status, 406);
});

test('a disabled key, or an archived app, is refused on the next request (keys and their tokens)', async () => {
  // A token bound to /mcp, then the key disabled: both refused at once.
  const provider = new ClientCredentialsProvider({ clientId: world.spare.clientId, clientSecret: world.spare.secret, expectedIssuer: base });
  const { client } = await connect({}, { authProvider: provider });
  await client.callTool({ name: 'search_knowledge', arguments: { query: 'refund' } });
  await client.close();
  const token = provider.tokens().access_token;
  const ping = (auth) => call('POST', '/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'ping' }, headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', authorization: `Bearer ${auth}` } });
  assert.equal((await ping(token)).status, 200);
  await ok('POST', `/trust-admin/apps/${world.spare.id}/keys/${world.spare.keyId}/disable`, { token: world.a.tokens.admin, body: {} });
  assert.equal((await ping(world.spare.secret)).status, 401);
  const refused = await ping(token);
  assert.equal(refused.status, 401);
  assert.equal(refused.json.code, 'key_disabled');

  const archivedProvider = new ClientCredentialsProvider({ clientId: world.archived.clientId, clientSecret: world.archived.secret, expectedIssuer: base });
  const archivedClient = await connect({}, { authProvider: archivedProvider });
  await archivedClient.client.close();
  const archivedToken = archivedProvider.tokens().access_token;
  await ok('POST', `/trust-admin/apps/${world.archived.id}/archive`, { token: world.a.tokens.admin, body: {} });
  assert.equal((await ping(world.archived.secret)).status, 401);
  assert.equal((await ping(archivedToken)).status, 401);
  await assert.rejects(connect({ 'X-Api-Key': world.archived.secret }));

  // Signed-in people and tenant keys are not AI applications.
  const person = await call('POST', '/mcp', { token: world.a.tokens.admin, body: { jsonrpc: '2.0', id: 1, method: 'ping' }, headers: { accept: 'application/json, text/event-stream' } });
  assert.equal(person.status, 403);
  assert.equal(person.json.code, 'app_key_required');
});
