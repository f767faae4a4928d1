// A real OpenID Connect provider (the oidc-provider package) for Credence's
// sign-in tests. Listens on 127.0.0.1 only.
//
//   node provider.mjs [--port N] [--clients FILE] [--client JSON]...
//                     [--keys FILE] [--keys-out FILE] [--kids-from FILE]
//                     [--ignore-stdin] [--verbose]
//
// --port N          0 (default) picks a free port.
// --clients FILE    a JSON array of clients; --client JSON adds one client.
//                   A client is oidc-provider client metadata, e.g.
//                   {"client_id":"credence-rs","client_secret":"s3cret",
//                    "redirect_uris":["http://127.0.0.1:5000/auth/callback"],
//                    "id_token_signed_response_alg":"RS256",
//                    "token_endpoint_auth_method":"client_secret_basic"}
//                   (the alg defaults to RS256, the method to
//                   client_secret_basic; client_secret_post also works).
// --keys FILE       start with this private JWKS ({"keys":[...]}) instead
//                   of fresh keys (a restart with the same keys).
// --keys-out FILE   write the private JWKS in use to FILE (for --keys later).
// --kids-from FILE  fresh key material, but the key ids of FILE's keys (a
//                   rotation a relying party cannot see from the kid).
// --ignore-stdin    keep running when stdin closes (by default the provider
//                   exits then, so it never outlives the test that started it).
//
// The first line on stdout is "ISSUER http://127.0.0.1:PORT"; everything
// else (oidc-provider's notices, errors with --verbose) goes to stderr.
//
// Accounts: any login name signs in (any password). sub is a stable hash of
// the login, email is the login, email_verified is true unless the login
// starts with "unverified", name is derived from the login's local part.
// Scopes: openid email profile. PKCE (S256) is required for every client,
// and scope claims are put in the ID token (as Google, Entra ID and Keycloak
// do), not only at the userinfo endpoint.
import { createHash, generateKeyPair, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import * as querystring from 'node:querystring';

const options = {
  port: 0, clients: [], keys: null, keysOut: null, kidsFrom: null, ignoreStdin: false, verbose: false,
};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 1) {
  const arg = argv[i];
  const value = () => {
    if (i + 1 >= argv.length) fail(`${arg} needs a value`);
    i += 1;
    return argv[i];
  };
  switch (arg) {
    case '--port': options.port = Number.parseInt(value(), 10); break;
    case '--clients': options.clients.push(...JSON.parse(readFileSync(value(), 'utf8'))); break;
    case '--client': options.clients.push(JSON.parse(value())); break;
    case '--keys': options.keys = JSON.parse(readFileSync(value(), 'utf8')).keys; break;
    case '--keys-out': options.keysOut = value(); break;
    case '--kids-from': options.kidsFrom = JSON.parse(readFileSync(value(), 'utf8')).keys; break;
    case '--ignore-stdin': options.ignoreStdin = true; break;
    case '--verbose': options.verbose = true; break;
    default: fail(`unknown argument ${arg}`);
  }
}

function fail(message) {
  process.stderr.write(`provider.mjs: ${message}\n`);
  process.exit(2);
}

// stdout carries only the ISSUER line; oidc-provider's development notices
// and warnings are dropped unless --verbose.
console.log = console.info = (...args) => { if (options.verbose) console.error(...args); };
console.warn = (...args) => { if (options.verbose) console.error(...args); };

if (!options.ignoreStdin) {
  process.stdin.on('end', () => process.exit(0));
  process.stdin.on('error', () => process.exit(0));
  process.stdin.resume();
}
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));

const privateJwk = (type, params) => new Promise((resolve, reject) => {
  generateKeyPair(type, params, (err, _publicKey, privateKey) => (
    err ? reject(err) : resolve(privateKey.export({ format: 'jwk' }))));
});

async function newKeys(kids) {
  const kid = (kty) => kids?.find((k) => k.kty === kty)?.kid ?? `${kty.toLowerCase()}-${randomBytes(6).toString('hex')}`;
  const [rsa, ec] = await Promise.all([
    privateJwk('rsa', { modulusLength: 2048 }),
    privateJwk('ec', { namedCurve: 'P-256' }),
  ]);
  return [
    { ...rsa, kid: kid('RSA'), use: 'sig', alg: 'RS256' },
    { ...ec, kid: kid('EC'), use: 'sig', alg: 'ES256' },
  ];
}

// Key generation (on libuv's thread pool) overlaps the import, the slow
// parts of start-up. oidc-provider is imported only now, so that the
// notices it prints on import are quiet too.
const [keys, { default: Provider }] = await Promise.all([
  options.keys ?? newKeys(options.kidsFrom),
  import('oidc-provider'),
]);
if (options.keysOut) writeFileSync(options.keysOut, JSON.stringify({ keys }));

const clients = options.clients.map((c) => ({
  grant_types: ['authorization_code'],
  response_types: ['code'],
  id_token_signed_response_alg: 'RS256',
  token_endpoint_auth_method: 'client_secret_basic',
  ...c,
}));

function nameFromLogin(login) {
  const local = login.split('@')[0].replace(/^unverified[._-]?/, '');
  const words = local.split(/[._-]+/).filter(Boolean);
  return words.length ? words.map((w) => w[0].toUpperCase() + w.slice(1)).join(' ') : login;
}

// The account id is the subject (oidc-provider puts it in `sub`): an
// opaque hash of the login, so that a relying party cannot mistake the email
// for the identity. Logins seen by this process, by subject.
const loginsBySubject = new Map();
function subjectFor(login) {
  const sub = `acct-${createHash('sha256').update(login).digest('hex').slice(0, 24)}`;
  loginsBySubject.set(sub, login);
  return sub;
}

function accountFor(sub) {
  const login = loginsBySubject.get(sub);
  if (login === undefined) return undefined;
  const name = nameFromLogin(login);
  return {
    accountId: sub,
    async claims() {
      return {
        sub,
        email: login,
        email_verified: !login.startsWith('unverified'),
        name,
        given_name: name.split(' ')[0],
        preferred_username: login,
      };
    },
  };
}

const server = createServer();
server.on('error', (err) => fail(`cannot listen: ${err.message}`));
server.listen(options.port, '127.0.0.1', () => {
  const { port } = server.address();
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients,
    jwks: { keys },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    scopes: ['openid', 'email', 'profile'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'preferred_username'],
    },
    conformIdTokenClaims: false,
    cookies: { keys: [randomBytes(32).toString('hex')] },
    findAccount: (_ctx, id) => accountFor(id),
    renderError(ctx, out) {
      ctx.type = 'json';
      ctx.body = out;
    },
  });
  if (options.verbose) {
    for (const event of ['server_error', 'authorization.error', 'grant.error', 'interaction.error']) {
      provider.on(event, (_ctx, err) => console.error(event, err));
    }
  }
  // The development login form submits `login`, which oidc-provider takes
  // as the account id: parse the form first and put the subject there.
  provider.use(async (ctx, next) => {
    if (ctx.method === 'POST' && ctx.path.startsWith('/interaction/') && ctx.is('application/x-www-form-urlencoded')) {
      const chunks = [];
      for await (const chunk of ctx.req) chunks.push(chunk);
      const form = querystring.parse(Buffer.concat(chunks).toString());
      if (form.prompt === 'login' && typeof form.login === 'string' && form.login) form.login = subjectFor(form.login);
      ctx.request.body = form;
    }
    await next();
  });
  server.on('request', provider.callback());
  process.stdout.write(`ISSUER ${issuer}\n`);
});
