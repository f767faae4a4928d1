// The latency the MCP server adds to a trust decision (docs/performance.md,
// "MCP evaluate_sources"): the same 20 sources decided by POST
// /api/trust/evaluate and by the evaluate_sources tool over POST /mcp
// (revision 2026-07-28, one stateless POST), with the same app key, on one
// keep-alive connection each, alternating, one request at a time. Prints
// the medians and percentiles of both and the median's difference.
//
//   CREDENCE_BINARY=build/release/src/app/credence node bench/mcp_latency.mjs [pairs]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';

const BINARY = process.env.CREDENCE_BINARY;
const PAIRS = Number(process.argv[2] ?? 2000);
const WARMUP = 200;
const SOURCES = 20;

if (!BINARY) throw new Error('set CREDENCE_BINARY');
const work = mkdtempSync(join(tmpdir(), 'credence-mcp-bench-'));
const port = await new Promise((resolve) => {
  const s = createServer();
  s.listen(0, '127.0.0.1', () => {
    const p = s.address().port;
    s.close(() => resolve(p));
  });
});
const server = spawn(BINARY, ['serve', '--dev', '--listen', `127.0.0.1:${port}`, '--data-dir', join(work, 'data'),
  '--rate-limit-key-rps', '0'], { stdio: 'ignore' });

// One keep-alive connection per kind of request, so neither pays a connect.
function client() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return (method, path, headers, body) => new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request({ host: '127.0.0.1', port, method, path, agent,
      headers: { ...headers, ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode, json: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
}

try {
  const setup = client();
  for (let i = 0; ; i++) {
    try {
      if ((await setup('GET', '/readyz', {})).status === 200) break;
    } catch {}
    if (i > 300) throw new Error('credence did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const ok = async (method, path, token, body, status = 200) => {
    const r = await setup(method, path, token ? { authorization: `Bearer ${token}` } : {}, body);
    if (r.status !== status) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json;
  };
  const t = await ok('POST', '/api/tenant/create', null, { name: 'Bench', slug: `bench-${port}`, enabledLanguages: ['en'] }, 201);
  const admin = (await ok('POST', '/auth/dev-login', null, { persona: 'admin', tenantId: t.id })).token;
  const editor = (await ok('POST', '/auth/dev-login', null, { persona: 'editor', tenantId: t.id })).token;
  await ok('POST', '/api/hubs', admin, { key: 'kb', name: 'KB', defaultExpiryDays: 365, defaultOrgRole: 'Editor' }, 201);
  const sources = [];
  for (let i = 0; i < SOURCES; i++) {
    const content = JSON.stringify({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: `Policy ${i}.` }] }] });
    const e = await ok('POST', '/api/entries', editor, { hubKey: 'kb', key: `p${i}`, originalLanguage: 'en', title: `Policy ${i}`, content }, 201);
    await ok('POST', `/api/entries/${e.id}/publish`, editor, {});
    if (i % 2 === 0) await ok('POST', `/api/entries/${e.id}/review`, editor, { reviewType: 'FullReview', timeSpentSeconds: 60 });
    sources.push(`entry:${e.id}`);
  }
  const appId = (await ok('POST', '/trust-admin/apps', admin, { name: 'Bench agent', channel: 'internal', risk: 'low' }, 201)).id;
  const key = (await ok('POST', `/trust-admin/apps/${appId}/keys`, admin,
    { name: 'bench', expiresAt: new Date(Date.now() + 86400e3).toISOString() }, 201)).clientSecret;

  const rest = client();
  const mcp = client();
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  let id = 0;
  const evaluate = () => rest('POST', '/api/trust/evaluate', { 'x-api-key': key }, { sources });
  const tool = () => mcp('POST', '/mcp', {
    'x-api-key': key, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call', 'mcp-name': 'evaluate_sources',
  }, { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'evaluate_sources', arguments: { sources }, _meta: meta } });
  const timed = async (f) => {
    const start = process.hrtime.bigint();
    const r = await f();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (r.status !== 200) throw new Error(`status ${r.status}: ${JSON.stringify(r.json)}`);
    return ms;
  };
  // Same answer both ways, or the comparison means nothing.
  const a = (await evaluate()).json;
  const b = (await tool()).json.result.structuredContent;
  if (JSON.stringify(a.results) !== JSON.stringify(b.results)) throw new Error('evaluate_sources answers differently');

  for (let i = 0; i < WARMUP; i++) {
    await timed(evaluate);
    await timed(tool);
  }
  const direct = [];
  const viaMcp = [];
  for (let i = 0; i < PAIRS; i++) {
    // Alternating which goes first, so neither always follows the other.
    if (i % 2 === 0) {
      direct.push(await timed(evaluate));
      viaMcp.push(await timed(tool));
    } else {
      viaMcp.push(await timed(tool));
      direct.push(await timed(evaluate));
    }
  }
  const q = (xs, p) => {
    const s = [...xs].sort((x, y) => x - y);
    return s[Math.min(s.length - 1, Math.floor(p * s.length))];
  };
  const row = (name, xs) => `${name.padEnd(34)} ${q(xs, 0.5).toFixed(3)}  ${q(xs, 0.9).toFixed(3)}  ${q(xs, 0.99).toFixed(3)}`;
  console.log(`${PAIRS} pairs, ${SOURCES} sources each (warm-up ${WARMUP}); milliseconds: median  p90  p99`);
  console.log(row('POST /api/trust/evaluate', direct));
  console.log(row('POST /mcp tools/call evaluate_sources', viaMcp));
  console.log(`added at the median: ${(q(viaMcp, 0.5) - q(direct, 0.5)).toFixed(3)} ms`);
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(work, { recursive: true, force: true });
}
