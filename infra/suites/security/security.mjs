// `npm run test:security`: an attacker's session against the whole stack, generated from the
// gateway's /openapi.json so a new route is probed without a test written for it.
//
//   GATEWAY_URL   the stack to attack (default: the one `npm start` wrote to .vigil/demo.json);
//                 when nothing answers there (or SECURITY_PRIVATE_STACK=1), a private stack is started
//                 (private NATS and ports, a fresh database named as DATABASE_URL's, default
//                 postgres://postgres@127.0.0.1:5432/vigil_security).
//
// Two fresh tenants are signed up through the API (the demo administrator reads their confirmation
// mail from the development mailbox): a victim that owns one of every resource and an attacker that
// tries to reach them. Prints `security: N probes over R routes, S succeeded` and exits 1 when any
// probe succeeded or any answer was a 5xx.
import { createHmac, createPublicKey, generateKeyPairSync, randomBytes, sign as rsaSign } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, log } from '../../scripts/bootstrap.mjs';
import {
  credentialsOf,
  everyString,
  fillPath,
  hasString,
  operationsOf,
  sample,
  samplePathValue,
  sampleQuery,
} from './openapi-probes.mjs';
import { trustProbes } from './trust-probes.mjs';

const started = Date.now();
const TIME_LIMIT_MS = 3 * 60_000;
const LOGIN_MAX_FAILURES = Number(process.env.SECURITY_LOGIN_MAX_FAILURES ?? 10);
const PASSWORD = `Sec-${randomBytes(9).toString('base64url')}`;

// ---------------------------------------------------------------------------------------------
// Where to attack

async function answers(url) {
  try {
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
    return res.status < 500 || res.status === 503;
  } catch {
    return false;
  }
}

async function target() {
  const demoFile = join(ROOT, '.vigil', 'demo.json');
  const demo = existsSync(demoFile) ? JSON.parse(readFileSync(demoFile, 'utf8')) : undefined;
  const url = (process.env.GATEWAY_URL ?? demo?.gatewayUrl ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
  // `npm test` asks for a stack of its own: a developer's `npm start` is not what it tests.
  if (process.env.SECURITY_PRIVATE_STACK !== '1' && (await answers(url))) {
    const admin = process.env.SECURITY_ADMIN_EMAIL
      ? {
          email: process.env.SECURITY_ADMIN_EMAIL,
          password: process.env.SECURITY_ADMIN_PASSWORD,
          totpSecret: process.env.SECURITY_ADMIN_TOTP_SECRET,
        }
      : demo?.admin;
    if (!admin?.password || !admin.totpSecret) throw new Error(`${url} answers but there is no administrator to use: run npm start (it writes .vigil/demo.json) or set SECURITY_ADMIN_EMAIL/PASSWORD/TOTP_SECRET`);
    log(`Security suite against ${url}`);
    return { url, admin, stop: async () => {}, accessTokenTtl: undefined };
  }
  log(`Nothing answers at ${url}: starting a private stack for the security suite...`);
  const { freshDatabase } = await import('../../scripts/infrastructure.mjs');
  const { privatePorts, startNats, startPrivateStack } = await import('../private-stack.mjs');
  const [natsPort] = await privatePorts(1);
  // A fresh store: streams left by an earlier run would describe a database that no longer exists.
  const storeDir = mkdtempSync(join(tmpdir(), 'vigil-security-nats-'));
  const nats = await startNats({ port: natsPort, storeDir });
  const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vigil_security';
  let stack;
  try {
    const databaseUrl = await freshDatabase(base, new URL(base).pathname.slice(1) || 'vigil_security');
    // Short-lived access tokens so the suite can present a genuinely expired one before it ends.
    stack = await startPrivateStack({
      databaseUrl,
      natsUrl: nats.url,
      busKeys: nats.keys,
      logDir: join(ROOT, 'test-results', 'security-stack-logs'),
      // The suite's loopback hop is a trusted proxy, so the lockout probes can speak from two client addresses.
      env: { ACCESS_TOKEN_TTL_SECONDS: '30', TRUSTED_PROXIES: 'loopback' },
    });
  } catch (error) {
    await nats.stop();
    throw error;
  }
  return {
    url: stack.gatewayUrl,
    admin: stack.demo.admin,
    accessTokenTtl: 30,
    nats: { url: nats.url, keys: nats.keys },
    trustsLoopbackProxy: true,
    stop: async () => {
      await stack.stop();
      await nats.stop();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP and bookkeeping

let base;
const results = { probes: 0, succeeded: [], serverErrors: [], rateLimited: 0, byCategory: {} };
const routesProbed = new Set();

async function http(method, path, { token, key, body, headers = {}, raw } = {}) {
  const h = { ...headers };
  if (token) h.authorization = `Bearer ${token}`;
  if (key) h['x-api-key'] = key;
  let payload = raw;
  if (body !== undefined && raw === undefined) {
    payload = JSON.stringify(body);
    h['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${base}${path}`, { method: method.toUpperCase(), headers: h, body: payload, redirect: 'manual' });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** A setup call that must work: the suite cannot judge anything when its fixtures are missing. */
async function must(method, path, options, what) {
  const res = await http(method, path, options);
  if (res.status >= 300) throw new Error(`${what ?? `${method.toUpperCase()} ${path}`} answered ${res.status}: ${res.text.slice(0, 300)}`);
  return res.json ?? {};
}

const LEAK = /\bat [\w.<>]+ \(|QueryFailedError|syntax error at or near|node_modules\/|\/dist\/src\//;

/**
 * One attack. `succeeded(res)` says whether the attacker got what it wanted; every 5xx and every
 * answer that leaks a stack trace or SQL is a failure of its own.
 */
async function probe(category, op, description, send, succeeded = (res) => res.status >= 200 && res.status < 300) {
  results.probes += 1;
  results.byCategory[category] = (results.byCategory[category] ?? 0) + 1;
  if (op) routesProbed.add(`${op.method} ${op.path}`);
  let res;
  try {
    res = await send();
  } catch (error) {
    results.serverErrors.push(`${category}: ${description}: no answer (${error.message})`);
    return undefined;
  }
  if (res.status === 429) results.rateLimited += 1;
  // A 503 problem with its code is a deliberate answer (a feature not configured, a dependency down), not a crash.
  const declared = res.status === 503 && res.json?.code === 'SERVICE_UNAVAILABLE';
  if (res.status >= 500 && !declared) results.serverErrors.push(`${category}: ${description} → ${res.status} ${res.text.slice(0, 200)}`);
  else if (succeeded(res)) results.succeeded.push(`${category}: ${description} → ${res.status} ${res.text.slice(0, 160)}`);
  else if (res.status >= 400 && LEAK.test(res.text)) results.succeeded.push(`${category}: ${description} leaks internals → ${res.text.slice(0, 200)}`);
  return res;
}

const ok = (res) => res.status >= 200 && res.status < 300;
const describeOp = (op, path) => `${op.method.toUpperCase()} ${path ?? op.path}`;

// ---------------------------------------------------------------------------------------------
// Tenants

async function token(email, password, extra = {}) {
  const session = await must('post', '/auth/v1/token?grant_type=password', { body: { email, password, ...extra } }, `sign-in of ${email}`);
  return session;
}

/**
 * The administrator at aal2 (every admin route needs it): password, then the authenticator's code.
 * Each 30 s step's code is accepted once, with its neighbours', so the next step's is tried first.
 */
async function adminSession(admin) {
  const session = await token(admin.email, admin.password);
  const factor = session.user.factors.find((f) => f.status === 'verified');
  if (!factor) throw new Error(`the administrator ${admin.email} has no verified authenticator`);
  for (let round = 0; round < 2; round++) {
    for (const offset of [30_000, 0, -30_000]) {
      const challenge = await must('post', `/auth/v1/factors/${factor.id}/challenge`, { token: session.access_token, body: {} });
      const verified = await http('post', `/auth/v1/factors/${factor.id}/verify`, {
        token: session.access_token,
        body: { challenge_id: challenge.id, code: totp(admin.totpSecret, Date.now() + offset) },
      });
      if (ok(verified)) return verified.json.access_token;
    }
    await new Promise((r) => setTimeout(r, 30_000 - (Date.now() % 30_000) + 500));
  }
  throw new Error('no code of the administrator\'s authenticator was accepted');
}

async function confirmationToken(adminToken, email) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const box = await must('get', `/auth/v1/dev/mailbox?to=${encodeURIComponent(email)}`, { token: adminToken }, 'the development mailbox');
    for (const message of box.messages ?? []) {
      const text = JSON.stringify(message);
      const match = /[?&](?:token|token_hash)=([A-Za-z0-9_\-.%]+)/.exec(text);
      if (match) return decodeURIComponent(match[1]);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`no confirmation mail reached ${email}`);
}

/** Signs a tenant up through the API, as a customer would, and buys the large plan in the sandbox. */
async function tenant(label, adminToken) {
  const email = `security-${label}-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
  await must('post', '/auth/v1/signup', {
    body: { full_name: `Security ${label}`, email, password: PASSWORD, confirm_password: PASSWORD, accepted_terms: true },
  });
  await must('post', '/auth/v1/verify', { body: { type: 'signup', token: await confirmationToken(adminToken, email) } });
  const { subscribeDemoClient } = await import('../../scripts/stack.mjs');
  await subscribeDemoClient(base, { email, password: PASSWORD });
  const session = await token(email, PASSWORD);
  const rotated = await must('post', '/api/settings/regenerate-api-key', { token: session.access_token });
  const key = rotated.apiKey ?? rotated.api_key ?? rotated.key;
  if (!key) throw new Error(`regenerate-api-key returned no key: ${JSON.stringify(rotated).slice(0, 200)}`);
  const client = await must('get', '/api/client', { token: session.access_token, key });
  const user = await must('get', '/auth/v1/user', { token: session.access_token });
  return { label, email, key, token: session.access_token, refresh: session.refresh_token, clientId: client.id, userId: user.id };
}

/**
 * New access tokens for both tenants before each phase: the private stack's tokens live 30 s, and
 * a probe sent with an expired token would prove nothing about the route.
 */
async function freshSessions(...who) {
  for (const w of who) {
    const session = await token(w.email, PASSWORD);
    w.token = session.access_token;
    w.refresh = session.refresh_token;
  }
}

let freshAt = 0;
/** Inside a long phase: new tokens every 10 s, well within the shortest lifetime. */
async function keepFresh(...who) {
  if (Date.now() - freshAt < 10_000) return;
  await freshSessions(...who);
  freshAt = Date.now();
}

async function rekey(who) {
  const session = await token(who.email, PASSWORD);
  const rotated = await must('post', '/api/settings/regenerate-api-key', { token: session.access_token });
  return { token: session.access_token, refresh: session.refresh_token, key: rotated.apiKey ?? rotated.api_key ?? rotated.key };
}

/** One of everything a tenant owns, by kind; the BOLA probes aim the attacker at these ids. */
async function victimResources(v) {
  const as = { token: v.token, key: v.key };
  const ids = { client: [v.clientId], user: [v.userId], email: [v.email], apiKey: [v.key] };
  const add = (kind, id) => id && (ids[kind] ??= []).push(String(id));
  const screened = await must('post', '/api/v1/screen', { key: v.key, body: { name: 'Vladimir Putin' } });
  add('screening', screened.screeningId);
  const names = Array.from({ length: 1001 }, (_, i) => `Security Probe Person ${i}`);
  const job = await http('post', '/api/v1/bulk-screen', { key: v.key, body: { names } });
  add('bulkJob', job.json?.jobId);
  const dashboardJob = await http('post', '/api/sanctions/bulk-search', { ...as, body: { names } });
  add('bulkJob', dashboardJob.json?.job?.jobId ?? dashboardJob.json?.jobId);
  const form = new FormData();
  form.set('file', new Blob(['name,email\nVladimir Putin,vp@example.com\nJane Doe,jd@example.com\n'], { type: 'text/csv' }), 'victims.csv');
  form.set('name', 'Victim list');
  const uploaded = await fetch(`${base}/api/client-lists/upload-csv`, {
    method: 'POST',
    headers: { authorization: `Bearer ${v.token}`, 'x-api-key': v.key },
    body: form,
  }).then((r) => r.json());
  add('clientList', uploaded.id ?? uploaded.list?.id ?? uploaded.listId);
  const entity = await must('post', '/api/monitoring/entities', { ...as, body: { entity_name: 'Vladimir Putin', check_frequency: 'daily' } });
  add('monitoredEntity', entity.id ?? entity.entity?.id);
  await http('post', `/api/monitoring/entities/${ids.monitoredEntity?.[0]}/check`, as);
  const alerts = await http('get', '/api/monitoring/alerts', as);
  for (const alert of (alerts.json?.alerts ?? alerts.json?.items ?? []).slice(0, 2)) add('monitoringAlert', alert.id);
  const webhook = await must('post', '/api/monitoring/webhooks', {
    ...as,
    body: { url: 'https://1.1.1.1/victim-hook', event_types: ['monitoring.alert'] },
  });
  add('webhook', webhook.id ?? webhook.webhook?.id);
  const sessions = await http('get', '/auth/v1/sessions', { token: v.token });
  for (const s of (sessions.json?.sessions ?? sessions.json ?? []).slice?.(0, 2) ?? []) add('session', s.id);
  const factor = await http('post', '/auth/v1/factors', { token: v.token, body: { friendly_name: 'Victim phone' } });
  add('factor', factor.json?.id);
  const checkout = await http('post', '/api/payment/create-checkout-session', { token: v.token, body: { tier: 'large', clientEmail: v.email } });
  add('checkout', checkout.json?.sessionId ?? (checkout.json?.url ? new URL(checkout.json.url).searchParams.get('session_id') : undefined));
  const reviews = await http('get', '/api/sanctions/review', as);
  for (const r of (reviews.json?.reviews ?? []).slice(0, 2)) add('screening', r.id);
  return ids;
}

/**
 * Which of the victim's ids a path parameter takes. A route added tomorrow whose parameter is not
 * recognised here gets every id the victim owns, so it is still probed with something real.
 */
const ID_KINDS = [
  [/\/(v1\/jobs|bulk-jobs)\/\{/, ['bulkJob']],
  [/\/review\/\{/, ['screening']],
  [/\/(client\/lists|client-lists)\//, ['clientList']],
  [/\/monitoring\/entities\/\{/, ['monitoredEntity']],
  [/\/monitoring\/alerts\/\{/, ['monitoringAlert']],
  [/\/webhooks\/\{/, ['webhook']],
  [/\/auth\/v1\/sessions\/\{/, ['session']],
  [/\/factors\/\{/, ['factor']],
  [/\/identities\/\{/, ['user']],
  [/\/api-key\/\{/, ['apiKey']],
  [/\/clients\/\{/, ['client']],
  [/\/sandbox\/sessions\/\{/, ['checkout']],
  [/\/client-by-email\/\{/, ['email']],
];
/** Public reference data that no tenant owns: nothing to steal by id. */
const NOT_OWNED = [/\/sanctions\/entity\/\{/, /\/reports\/list\/\{source\}/];

const isIdParam = (op, name) => !op.pathSchemas[name]?.enum && !op.pathSchemas[name]?.pattern;

function idCandidates(op, ids) {
  const kinds = ID_KINDS.find(([pattern]) => pattern.test(op.path))?.[1];
  const chosen = kinds ? kinds.flatMap((k) => ids[k] ?? []) : Object.values(ids).flat();
  return [...new Set(chosen)];
}

function credentialsFor(op, who) {
  switch (credentialsOf(op)) {
    case 'api-key':
      return { key: who.key };
    case 'session':
      return { token: who.token };
    case 'api-key+session':
    case 'admin':
      return { token: who.token, key: who.key };
    default:
      return {};
  }
}

function requestParts(op, body) {
  const query = sampleQuery(op);
  const payload = body ?? (op.jsonBody ? sample(op.jsonBody) : undefined);
  return { query, payload: op.method === 'get' || op.method === 'delete' ? undefined : payload };
}

// ---------------------------------------------------------------------------------------------
// JWTs an attacker can make without auth's private key

const b64 = (v) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const claimsOf = (jwt) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8'));
const headerOf = (jwt) => JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString('utf8'));

function forgedTokens(real, jwksKey, victim) {
  const header = headerOf(real);
  const claims = claimsOf(real);
  const now = Math.floor(Date.now() / 1000);
  const admin = { ...claims, role: 'admin', client_id: null, aal: 'aal2', mfa_enrolled: false, exp: now + 600 };
  const own = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const rs256 = (h, p, key = own.privateKey) => {
    const input = `${b64(h)}.${b64(p)}`;
    return `${input}.${rsaSign('sha256', Buffer.from(input), key).toString('base64url')}`;
  };
  const hs256 = (h, p, secret) => {
    const input = `${b64(h)}.${b64(p)}`;
    return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
  };
  const publicPem = createPublicKey({ key: jwksKey, format: 'jwk' }).export({ type: 'spki', format: 'pem' }).toString();
  const [h, p, s] = real.split('.');
  return [
    ['alg none, admin role', `${b64({ alg: 'none', typ: 'JWT' })}.${b64(admin)}.`],
    ['alg None (capitalised), admin role', `${b64({ alg: 'None', typ: 'JWT' })}.${b64(admin)}.`],
    ['HS256 signed with the public key (PEM), admin role', hs256({ alg: 'HS256', typ: 'JWT', kid: header.kid }, admin, publicPem)],
    ['HS256 signed with the public key (JWK n), admin role', hs256({ alg: 'HS256', typ: 'JWT', kid: header.kid }, admin, jwksKey.n)],
    ['expired (exp an hour ago, re-signed)', rs256({ ...header }, { ...claims, exp: now - 3600, iat: now - 4000 })],
    ['other issuer', rs256({ ...header }, { ...claims, iss: 'https://evil.example' })],
    ['other audience', rs256({ ...header }, { ...claims, aud: 'someone-else' })],
    ['forged admin role on a real token (signature kept)', `${h}.${b64({ ...claims, role: 'admin' })}.${s}`],
    ['victim client_id on a real token (signature kept)', `${h}.${b64({ ...claims, client_id: victim.clientId, sub: victim.userId })}.${s}`],
    ['embedded jwk header (own key)', rs256({ alg: 'RS256', typ: 'JWT', jwk: own.publicKey.export({ format: 'jwk' }) }, admin)],
    ['jku header to an attacker URL', rs256({ alg: 'RS256', typ: 'JWT', jku: 'http://127.0.0.1:9/jwks.json', kid: 'attacker' }, admin)],
    ['kid path traversal, HS256 with empty key', hs256({ alg: 'HS256', typ: 'JWT', kid: '../../../../../../dev/null' }, admin, '')],
    ['real kid, own RSA key, admin role', rs256({ ...header }, admin)],
    ['signature stripped', `${h}.${p}.`],
    ['not a JWT', 'not-a-token'],
  ];
}

// ---------------------------------------------------------------------------------------------
// TOTP (RFC 6238, the defaults auth enrols: SHA-1, 6 digits, 30 s)

function totp(base32, at = Date.now()) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of base32.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const secret = Buffer.from(bits.match(/.{8}/g).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', secret).update(counter).digest();
  const offset = mac[mac.length - 1] & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

// ---------------------------------------------------------------------------------------------
// The run

async function main() {
  const t = await target();
  base = t.url;
  try {
    await run(t);
  } finally {
    await t.stop();
  }
}

async function run(t) {
  const document = await must('get', '/openapi.json', {}, 'the OpenAPI document');
  const operations = operationsOf(document);
  const adminToken = await adminSession(t.admin);
  log(`${operations.length} operations in /openapi.json; signing up a victim and an attacker tenant...`);
  const victim = await tenant('victim', adminToken);
  const attacker = await tenant('attacker', adminToken);
  const earlyAttackerSession = await token(attacker.email, PASSWORD);
  const ids = await victimResources(victim);
  log(`victim owns: ${Object.entries(ids).map(([k, v]) => `${k} ${v.length}`).join(', ')}`);

  const jwks = await must('get', '/auth/v1/.well-known/jwks.json');

  await freshSessions(victim, attacker);
  // --- BOLA: every route with an id, the attacker's own credentials, the victim's ids.
  let confirmed = 0;
  let boloIds = 0;
  for (const op of operations) {
    const kind = credentialsOf(op);
    if (kind === 'public' || kind === 'admin' || op.pathParams.length === 0) continue;
    if (NOT_OWNED.some((p) => p.test(op.path))) continue;
    const idParams = op.pathParams.filter((n) => isIdParam(op, n));
    if (idParams.length === 0) continue;
    for (const id of idCandidates(op, ids)) {
      await keepFresh(victim, attacker);
      const path = fillPath(op, (name) => (idParams.includes(name) ? encodeURIComponent(id) : samplePathValue(op, name)));
      const { query, payload } = requestParts(op);
      boloIds += 1;
      if (op.method === 'get') {
        // The same request as the owner: proves the id is real, so a refusal to the attacker means something.
        const own = await http('get', `${path}${query}`, credentialsFor(op, victim));
        if (ok(own)) confirmed += 1;
      }
      await probe('BOLA', op, `${describeOp(op, path)} with the victim's id as the attacker`, () =>
        http(op.method, `${path}${query}`, { ...credentialsFor(op, attacker), body: payload }),
      );
    }
  }
  log(`BOLA: ${boloIds} victim ids tried (${confirmed} GETs confirmed as the owner's)`);

  await freshSessions(victim, attacker);
  // --- BFLA: every administration route with a client's session (and its key), and with nothing.
  for (const op of operations) {
    const kind = credentialsOf(op);
    if (kind === 'public') continue;
    await keepFresh(attacker);
    const path = fillPath(op, (name) => (isIdParam(op, name) ? encodeURIComponent(ids.client[0]) : samplePathValue(op, name)));
    const { query, payload } = requestParts(op);
    if (kind === 'admin') {
      await probe('BFLA', op, `${describeOp(op, path)} with a client's session`, () =>
        http(op.method, `${path}${query}`, { token: attacker.token, key: attacker.key, body: payload }),
      );
      await probe('BFLA', op, `${describeOp(op, path)} with a client's API key`, () =>
        http(op.method, `${path}${query}`, { key: attacker.key, body: payload }),
      );
    }
    await probe('no credentials', op, `${describeOp(op, path)} without credentials`, () => http(op.method, `${path}${query}`, { body: payload }));
  }

  await freshSessions(victim, attacker);
  // --- JWT attacks on every GET route that takes a session.
  const forged = forgedTokens(attacker.token, jwks.keys[0], victim);
  const sessionGets = operations.filter((op) => op.method === 'get' && ['session', 'api-key+session', 'admin'].includes(credentialsOf(op)));
  for (const op of sessionGets) {
    const path = fillPath(op, (name) => (isIdParam(op, name) ? encodeURIComponent(idCandidates(op, ids)[0] ?? 'x') : samplePathValue(op, name)));
    const query = sampleQuery(op);
    const key = credentialsOf(op) === 'session' ? undefined : attacker.key;
    for (const [name, jwt] of [...forged, ['refresh token as an access token', attacker.refresh]]) {
      await probe('JWT', op, `${describeOp(op, path)} with ${name}`, () => http('get', `${path}${query}`, { token: jwt, key }));
    }
  }

  await freshSessions(victim, attacker);
  // --- Hostile inputs on every route: NUL, lone surrogates, out-of-range integers, invalid UTF-8,
  // oversized and deeply nested bodies, wrong content types. Any 5xx fails.
  const huge = `{"names":["${'A'.repeat(17 * 1024 * 1024)}"]}`;
  const nested = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const nestedObject = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
  for (const op of operations) {
    if (op.path.startsWith('/auth/v1/token') || op.path === '/auth/v1/signup' || op.path === '/auth/v1/logout') continue;
    await keepFresh(attacker);
    const creds = credentialsFor(op, attacker);
    const fill = (value) => fillPath(op, (name) => (isIdParam(op, name) ? value : samplePathValue(op, name)));
    const path = fill(encodeURIComponent(idCandidates(op, ids)[0] ?? 'x'));
    const { query } = requestParts(op);
    const hostilePaths = op.pathParams.some((n) => isIdParam(op, n)) ? [fill('a%00b'), fill('%ED%A0%80'), fill('%FF%FE')] : [];
    for (const p of hostilePaths) await probe('input', op, `${describeOp(op, p)}`, () => http(op.method, p + query, creds), () => false);
    for (const q of op.query) {
      const bad = ['a\u0000b', '\ud800', ...(['integer', 'number'].includes(q.schema.type) ? ['2147483648', '-2147483649', '1e400'] : [])];
      for (const value of bad) {
        const qs = sampleQuery(op, { [q.name]: value });
        await probe('input', op, `${describeOp(op)} ${q.name}=${JSON.stringify(value)}`, () => http(op.method, path + qs, creds), () => false);
      }
      await probe('input', op, `${describeOp(op)} ${q.name}=%FF (invalid UTF-8)`, () => http(op.method, `${path}?${q.name}=%FF%FE`, creds), () => false);
    }
    if (op.method === 'get' || op.method === 'delete') continue;
    const body = op.jsonBody ? sample(op.jsonBody) : {};
    const strings = hasString(body);
    // A route that reads a JSON body must refuse one it cannot take; a route without a body ignores it.
    const jsonRoute = (res) => ok(res) && op.jsonBody !== undefined;
    for (const [label, value] of [
      ['NUL byte in every string', 'a\u0000b'],
      ['lone surrogate in every string', 'x\ud800y'],
    ]) {
      // A string the route reads must be refused (400), not stored or answered with a 500.
      await probe('input', op, `${describeOp(op, path)} ${label}`, () => http(op.method, path + query, { ...creds, body: everyString(body, value) }), (res) => strings && ok(res));
    }
    const rawBody = JSON.stringify(body);
    await probe('input', op, `${describeOp(op, path)} invalid UTF-8 body`, () =>
      http(op.method, path + query, { ...creds, headers: { 'content-type': 'application/json' }, raw: Buffer.concat([Buffer.from(rawBody.slice(0, -1)), Buffer.from(',"x":"\xff\xfe\xc3"}', 'latin1')]) }),
      () => false,
    );
    await probe('input', op, `${describeOp(op, path)} 17 MiB body`, () =>
      http(op.method, path + query, { ...creds, headers: { 'content-type': 'application/json' }, raw: huge }),
      jsonRoute,
    );
    await probe('input', op, `${describeOp(op, path)} 100,000-deep array`, () =>
      http(op.method, path + query, { ...creds, headers: { 'content-type': 'application/json' }, raw: nested }),
      // A DoS probe: the parser must survive it. An object whose unknown field is dropped may be answered.
      () => false,
    );
    await probe('input', op, `${describeOp(op, path)} 20,000-deep object`, () =>
      http(op.method, path + query, { ...creds, headers: { 'content-type': 'application/json' }, raw: nestedObject }),
      // A DoS probe: the parser must survive it. An object whose unknown field is dropped may be answered.
      () => false,
    );
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      // A route that needs a body must not act on one it was not sent as JSON.
      await probe('content type', op, `${describeOp(op, path)} as ${type}`, () =>
        http(op.method, path + query, { ...creds, headers: { 'content-type': type }, raw: type.startsWith('multipart') ? '--x--' : rawBody }),
        (res) => ok(res) && op.jsonBody !== undefined,
      );
    }
  }

  await freshSessions(victim, attacker);
  // --- Issue #15: the takeover chain through the development mailbox.
  const mailbox = { method: 'get', path: '/auth/v1/dev/mailbox' };
  await http('post', '/auth/v1/recover', { body: { email: victim.email } });
  await probe('#15 mailbox', mailbox, 'GET /auth/v1/dev/mailbox without credentials after a recovery mail', () => http('get', `/auth/v1/dev/mailbox?to=${encodeURIComponent(victim.email)}`));
  await probe('#15 mailbox', mailbox, "GET /auth/v1/dev/mailbox with a client's session", () =>
    http('get', `/auth/v1/dev/mailbox?to=${encodeURIComponent(victim.email)}`, { token: attacker.token }),
  );
  await probe('#15 mailbox', undefined, 'the public /openapi.json lists no development-only route', async () => ({ status: 200, text: '', headers: new Headers() }), () =>
    Object.keys(document.paths).some((p) => p.includes('/dev/')),
  );
  await probe('#15 lists', undefined, 'GET /api/lists shows no server file paths', () => http('get', '/api/lists'), (res) =>
    /(?:^|["\s(])\/(?:home|work|tmp|var|usr|srv|opt|app|root)\/|[A-Z]:\\\\/.test(res.text),
  );
  await probe('#15 headers', undefined, 'gateway answers carry nosniff and a CSP with frame-ancestors', () => http('get', '/health'), (res) =>
    res.headers.get('x-content-type-options') !== 'nosniff' || !/frame-ancestors/.test(res.headers.get('content-security-policy') ?? ''),
  );

  // --- Mass assignment: every JSON body with fields the caller must not set. Runs late: some of
  // these bodies change the attacker's own account (its plan, its name), which is theirs to change.
  const smuggled = {
    client_id: victim.clientId,
    clientId: victim.clientId,
    tenant_id: victim.clientId,
    user_id: victim.userId,
    userId: victim.userId,
    owner_id: victim.userId,
    role: 'admin',
    is_admin: true,
    isAdmin: true,
    quota_month: 999_999_999,
    usage_month: 0,
    subscription_status: 'active',
    email_confirmed_at: '2000-01-01T00:00:00.000Z',
    aal: 'aal2',
  };
  // The hostile-input probes reached every route with the attacker's credentials, key rotation
  // included (an empty body is a valid request there): take a known key again.
  Object.assign(attacker, await rekey(attacker));
  const before = await must('get', '/api/client', { token: attacker.token, key: attacker.key });
  for (const op of operations) {
    if (!op.jsonBody || op.path.startsWith('/auth/v1/token') || op.path === '/auth/v1/signup') continue;
    const kind = credentialsOf(op);
    if (kind === 'admin') continue;
    await keepFresh(attacker);
    const path = fillPath(op, (name) => (isIdParam(op, name) ? encodeURIComponent(idCandidates(op, ids)[0] ?? 'x') : samplePathValue(op, name)));
    const body = sample(op.jsonBody);
    const payload = body && typeof body === 'object' && !Array.isArray(body) ? { ...body, ...smuggled } : body;
    await probe('mass assignment', op, `${describeOp(op, path)} with client_id/role/quota smuggled in`, () =>
      http(op.method, path + sampleQuery(op), { ...credentialsFor(op, attacker), body: payload }),
      (res) => ok(res) && (res.text.includes(victim.clientId) || res.text.includes(victim.userId) || /"role"\s*:\s*"admin"/.test(res.text) || res.text.includes('999999999')),
    );
  }
  const after = await http('get', '/api/client', { token: (await token(attacker.email, PASSWORD)).access_token });
  const fresh = await token(attacker.email, PASSWORD);
  await probe('mass assignment', undefined, "the attacker's quota, client and role are unchanged afterwards", async () => after, (res) =>
    res.json?.quota_month === 999_999_999 || res.json?.id !== before.id || claimsOf(fresh.access_token).role === 'admin',
  );

  // --- MFA at the gateway (#15 finding 2): the attacker enrols TOTP, then presents a password-only session.
  const enrolled = await must('post', '/auth/v1/factors', { token: fresh.access_token, body: { friendly_name: 'Attacker phone' } });
  const challenge = await must('post', `/auth/v1/factors/${enrolled.id}/challenge`, { token: fresh.access_token, body: {} });
  await must('post', `/auth/v1/factors/${enrolled.id}/verify`, {
    token: fresh.access_token,
    body: { challenge_id: challenge.id, code: totp(enrolled.totp.secret) },
  });
  const aal1 = (await token(attacker.email, PASSWORD)).access_token;
  if (claimsOf(aal1).aal !== 'aal1') throw new Error('a password-only sign-in did not give an aal1 session');
  for (const op of operations) {
    const kind = credentialsOf(op);
    if (!['session', 'api-key+session', 'admin'].includes(kind)) continue;
    // Auth's own routes decide for themselves (the factor challenge must work at aal1); the gateway's must refuse.
    if (op.path.startsWith('/auth/v1/') && op.path !== '/auth/v1/sessions') continue;
    const path = fillPath(op, (name) => (isIdParam(op, name) ? encodeURIComponent(idCandidates(op, ids)[0] ?? 'x') : samplePathValue(op, name)));
    const { query, payload } = requestParts(op);
    await probe('#15 MFA', op, `${describeOp(op, path)} with an aal1 session of an MFA-enrolled user`, () =>
      http(op.method, path + query, { token: aal1, key: attacker.key, body: payload }),
      (res) => !(res.status === 403 && res.json?.code === 'MFA_REQUIRED') && ok(res),
    );
  }

  // --- Brute force (#15 finding 5): 25 parallel wrong passwords; at most the limit are evaluated,
  // and the owner, with the right password and a current TOTP code, still gets in.
  const guesses = await Promise.all(
    Array.from({ length: 25 }, (_, i) =>
      http('post', '/auth/v1/token?grant_type=password', { body: { email: attacker.email, password: `wrong-password-${i}` } }),
    ),
  );
  results.probes += guesses.length;
  results.byCategory['#15 brute force'] = guesses.length;
  const evaluated = guesses.filter((g) => g.status === 400 || g.status === 401).length;
  for (const g of guesses) if (g.status >= 500) results.serverErrors.push(`#15 brute force: a wrong password → ${g.status}`);
  if (evaluated > LOGIN_MAX_FAILURES) results.succeeded.push(`#15 brute force: ${evaluated} of 25 parallel wrong passwords were evaluated (limit ${LOGIN_MAX_FAILURES})`);
  if (!guesses.some((g) => g.status === 429 && g.headers.get('retry-after'))) results.succeeded.push('#15 brute force: no 429 with Retry-After after 25 wrong passwords');
  const lockedOut = await http('post', '/auth/v1/token?grant_type=password', { body: { email: attacker.email, password: PASSWORD } });
  const owner = await http('post', '/auth/v1/token?grant_type=password', {
    body: { email: attacker.email, password: PASSWORD, mfa_code: totp(enrolled.totp.secret, Date.now() + 30_000) },
  });
  results.probes += 2;
  if (lockedOut.status === 200) results.succeeded.push('#15 brute force: the password alone still signs in after the lockout');
  if (owner.status !== 200) results.succeeded.push(`#15 brute force: the locked-out owner with password and TOTP code was refused (${owner.status}): lockout denies service`);

  // --- Issue #33: the bus, the lockout, streams after sign-out, audit holes, admin routes at aal1.
  await trustProbes(
    { http, probe, must, ok, token, freshSessions, operations, credentialsOf, fillPath, samplePathValue, requestParts, base: () => base },
    t,
    victim,
    () => adminSession(t.admin),
    PASSWORD,
  );

  // --- A genuinely expired access token (the private stack issues 30-second tokens).
  if (t.accessTokenTtl) {
    const expiresAt = claimsOf(earlyAttackerSession.access_token).exp * 1000 + 6_000;
    if (expiresAt > Date.now()) await new Promise((r) => setTimeout(r, expiresAt - Date.now()));
    for (const op of sessionGets.filter((o) => !o.pathParams.length).slice(0, 10)) {
      await probe('JWT', op, `${describeOp(op)} with a genuinely expired access token`, () =>
        http('get', op.path + sampleQuery(op), { token: earlyAttackerSession.access_token, key: attacker.key }),
      );
    }
  } else {
    log('The stack issues access tokens for longer than this run: the expired-token probe uses a re-signed token only.');
  }

  // ---------------------------------------------------------------------------------------------
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const categories = Object.entries(results.byCategory).map(([k, v]) => `${k} ${v}`).join(', ');
  log(`probes by category: ${categories}; ${results.rateLimited} answered 429; ${seconds}s`);
  for (const s of results.succeeded) process.stdout.write(`  SUCCEEDED ${s}\n`);
  for (const s of results.serverErrors) process.stdout.write(`  5xx ${s}\n`);
  writeSummary(results.succeeded.length === 0 && results.serverErrors.length === 0);
  const line = `security: ${results.probes} probes over ${routesProbed.size} routes, ${results.succeeded.length} succeeded${results.serverErrors.length ? `, ${results.serverErrors.length} answered 5xx` : ''}`;
  process.stdout.write(`\n${line}\n`);
  if (Date.now() - started > TIME_LIMIT_MS) log(`over the 3-minute budget (${seconds}s)`);
  process.exitCode = results.succeeded.length || results.serverErrors.length ? 1 : 0;
}

/** Counted in `npm test`'s closing line like a jest run: one test per category of probes. */
function writeSummary(passed) {
  const dir = process.env.VIGIL_TEST_SUMMARY_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const failedCategories = new Set([...results.succeeded, ...results.serverErrors].map((s) => s.split(':')[0]));
  const total = Object.keys(results.byCategory).length;
  writeFileSync(
    join(dir, `security-${process.pid}.json`),
    JSON.stringify({ rootDir: 'security', passed: passed ? total : total - failedCategories.size, failed: passed ? 0 : Math.max(1, failedCategories.size), skipped: 0 }),
  );
}

main().catch((error) => {
  process.stderr.write(`security suite could not run: ${error.stack ?? error.message}\n`);
  writeFailureSummary();
  process.exit(2);
});

function writeFailureSummary() {
  const dir = process.env.VIGIL_TEST_SUMMARY_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `security-${process.pid}.json`), JSON.stringify({ rootDir: 'security', passed: 0, failed: 1, skipped: 0 }));
}
