// Issue #33's findings as probe families ("zero trust inside"), so none can return: the bus, the
// sign-in lockout, live streams after sign-out, the audit trail's holes and admin routes at aal1.
// Each probe goes through the suite's `probe` (counted, 5xx and leaks judged there); a probe
// "succeeds" when the attacker got what the finding describes.
import { connect } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';

const answer = (status, text = '') => ({ status, text, headers: new Headers(), json: undefined });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` until `found(text)` or the deadline; answers the last text read. */
async function within(ms, read, found) {
  const deadline = Date.now() + ms;
  let text = '';
  while (Date.now() < deadline) {
    text = await read();
    if (found(text)) return text;
    await sleep(300);
  }
  return text;
}

/**
 * @param {object} s the suite: { http, probe, must, token, ok, operations, credentialsOf, sampleQuery, fillPath, samplePathValue, requestParts }
 * @param {object} t the target: { admin, nats?: { url, keys }, trustsLoopbackProxy }
 * @param {object} victim a tenant (owner of its client) with `token`, `key`, `clientId`, `email`
 * @param {() => Promise<string>} adminAal2 a fresh aal2 token of the administrator
 * @param {string} password the tenants' password
 */
export async function trustProbes(s, t, victim, adminAal2, password) {
  const { http, probe, must, ok } = s;

  // --- Admin routes with a password-only administrator session (aal1): 403 MFA_REQUIRED on every one.
  const adminAal1 = (await s.token(t.admin.email, t.admin.password)).access_token;
  for (const op of s.operations.filter((o) => s.credentialsOf(o) === 'admin')) {
    const path = s.fillPath(op, (name) => s.samplePathValue(op, name));
    const { query, payload } = s.requestParts(op);
    await probe(
      '#33 admin aal2',
      op,
      `${op.method.toUpperCase()} ${path} with a password-only admin session`,
      () => http(op.method, path + query, { token: adminAal1, body: payload }),
      (res) => !(res.status === 403 && res.json?.code === 'MFA_REQUIRED'),
    );
  }

  // --- The bus: no credentials, and a service's key on another service's subjects.
  if (t.nats) {
    await probe('#33 bus', undefined, 'NATS connect without credentials', async () => {
      try {
        const nc = await connect({ servers: t.nats.url, reconnect: false, timeout: 3000 });
        await nc.close();
        return answer(200, 'connected');
      } catch (error) {
        return answer(401, String(error.message));
      }
    });
    const { natsConnectionOptions } = await import('@vigil/platform');
    const as = (who) =>
      connect({
        ...natsConnectionOptions(t.nats.url, `security-${who}`, { seed: t.nats.keys[who].seed }),
        maxReconnectAttempts: 0,
      });
    const listener = await as('harness');
    const screening = await as('screening');
    try {
      const forged = [
        `monitoring.v1.push.${victim.clientId}`,
        'admin.v1.action',
        'security.v1.event',
        'auth.v1.failed-auth',
        'auth.v1.session-revoked',
      ];
      for (const subject of forged) {
        await probe('#33 bus', undefined, `screening's key publishes on ${subject}`, async () => {
          const heard = listener.subscribe(subject, { max: 1 });
          await listener.flush();
          const marker = `forged-${randomBytes(4).toString('hex')}`;
          screening.publish(subject, JSON.stringify({ marker, clientId: victim.clientId }));
          await screening.flush().catch(() => undefined);
          const arrived = await Promise.race([
            (async () => {
              for await (const m of heard) return m.string().includes(marker);
              return false;
            })(),
            sleep(1000).then(() => false),
          ]);
          heard.unsubscribe();
          return arrived ? answer(200, `a message on ${subject} from screening arrived`) : answer(403);
        });
      }
    } finally {
      await Promise.allSettled([listener.close(), screening.close()]);
    }
  }

  // --- One lockout for everyone: wrong passwords from one client address do not lock the owner
  // out from another (needs the stack to trust the suite's loopback hop, as the private stack does).
  if (t.trustsLoopbackProxy) {
    const signIn = (pw, from) =>
      http('post', '/auth/v1/token?grant_type=password', {
        body: { email: victim.email, password: pw },
        headers: { 'x-forwarded-for': from },
      });
    for (let i = 0; i < 12; i++) await signIn(`wrong-password-${i}`, '203.0.113.77');
    await probe(
      '#33 lockout',
      undefined,
      'the owner from another address after 12 wrong passwords from one',
      () => signIn(password, '198.51.100.88'),
      (res) => !ok(res),
    );
    await probe('#33 lockout', undefined, 'the guessing address itself after 12 wrong passwords', () =>
      signIn(password, '203.0.113.77'),
    );
  }

  // --- A live stream stays closed after its session signs out.
  const own = (await s.token(victim.email, password)).access_token;
  await probe('#33 stream', undefined, 'GET /api/monitoring/stream still open 5 s after sign-out', async () => {
    const controller = new AbortController();
    const res = await fetch(`${s.base()}/api/monitoring/stream`, {
      headers: { authorization: `Bearer ${own}`, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    if (!res.ok || !res.body) return answer(res.status >= 500 ? res.status : 403, await res.text());
    const reader = res.body.getReader();
    const ended = (async () => {
      try {
        for (;;) if ((await reader.read()).done) return true;
      } catch {
        return true;
      }
    })();
    await sleep(500);
    await must('post', '/auth/v1/logout?scope=local', { token: own });
    const closed = await Promise.race([ended, sleep(5000).then(() => false)]);
    controller.abort();
    return closed ? answer(403) : answer(200, 'the stream kept its connection after sign-out');
  });

  // --- A four-eyes switch reaches the client's audit chain, naming who switched.
  await s.freshSessions(victim);
  const as = { token: victim.token, key: victim.key };
  // The evidence from just before the switch: the victim's earlier screenings would fill the first pages.
  const since = encodeURIComponent(new Date(Date.now() - 1000).toISOString());
  await must('put', '/api/sanctions/review-settings', { ...as, body: { fourEyes: true } });
  await must('put', '/api/sanctions/review-settings', { ...as, body: { fourEyes: false } });
  await probe('#33 audit holes', undefined, 'a four-eyes switch off is missing from the client evidence', async () => {
    const text = await within(
      8000,
      async () => (await http('get', `/api/client/audit/screenings?from=${since}`, as)).text,
      (t) => t.includes('four_eyes.disabled'),
    );
    return text.includes('four_eyes.disabled') ? answer(403) : answer(200, `no four_eyes.disabled record in: ${text.slice(0, 120)}`);
  });

  // --- The trail keeps no raw key and no unbounded, unauthenticated strings.
  const admin = await adminAal2();
  await http('get', `/api/client/clients/api-key/${victim.key}`, { token: admin });
  const forgedId = `forged-${'A'.repeat(300)}`;
  const long = 'B'.repeat(8192);
  await http('get', `/api/v1/status?${'q'.repeat(4000)}`, {
    key: 'f'.repeat(64),
    headers: { 'x-request-id': forgedId, 'user-agent': long },
  });
  const logs = async () => {
    const token = await adminAal2();
    const page = await http('get', '/api/client/admin/logs?limit=200', { token });
    const csv = await http('get', '/api/client/admin/logs/export', { token });
    return `${page.text}\n${csv.text}`;
  };
  const trail = await within(8000, logs, (text) => text.includes('invalid_api_key'));
  await probe('#33 audit key', undefined, 'the raw API key in the security log after find-by-key', async () =>
    trail.includes(victim.key) ? answer(200, 'raw key stored') : answer(403),
  );
  await probe('#33 audit bounds', undefined, 'an unauthenticated 8 KB user agent stored whole', async () =>
    trail.includes('B'.repeat(2048)) ? answer(200, '8 KB string stored') : answer(403),
  );
  await probe('#33 audit bounds', undefined, 'a chosen, invalid request id stored as sent', async () =>
    trail.includes(forgedId) ? answer(200, 'forged request id stored') : answer(403),
  );
}
