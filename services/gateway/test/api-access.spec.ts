import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { jetstreamManager } from '@nats-io/jetstream';
import { streams } from '@vigil/proto';
import request from 'supertest';
import { ApiStack } from './api-stack.js';
import { eventually } from './stack.js';

jest.setTimeout(120_000);

const PASSWORD = 'gateway-api-passphrase';

describe('public API: credentials, tenancy, rate limits, quotas and idempotency against the real stack', () => {
  const stack = new ApiStack();
  let app: INestApplication;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    await stack.start();
    app = await stack.gateway();
  });

  afterAll(() => stack.stop());

  /** A confirmed user attached to a new client, signed in: its key and its session token. */
  const member = (tier: 'starter' | 'large', email: string) => stack.member(app, tier, email, PASSWORD);

  it('refuses missing and unknown keys with a problem, and screens with a valid one', async () => {
    const missing = await http().post('/api/v1/screen').send({ name: 'Vladimir Putin' });
    expect(missing.status).toBe(401);
    expect(missing.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(missing.body).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
    const unknown = await http()
      .post('/api/v1/screen')
      .set('x-api-key', 'f'.repeat(64))
      .send({ name: 'Vladimir Putin' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('INVALID_API_KEY');

    const { key, id } = await stack.client('large');
    const invalid = await http()
      .post('/api/v1/screen')
      .set('x-api-key', key)
      .send({ name: '', dateOfBirth: '1952/10/07' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('VALIDATION_FAILED');
    expect(invalid.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(
      expect.arrayContaining(['/name', '/dateOfBirth']),
    );

    const screened = await http()
      .post('/api/v1/screen')
      .set('x-api-key', key)
      .set('x-request-id', 'req-screen-1')
      .send({ name: 'Vladimir Putin', entityType: 'individual' });
    expect(screened.status).toBe(200);
    expect(screened.headers['x-request-id']).toBe('req-screen-1');
    expect(screened.body).toMatchObject({ searchedName: 'Vladimir Putin' });
    expect(Array.isArray(screened.body.results)).toBe(true);
    expect(screened.headers['ratelimit-limit']).toBe('500');
    const status = await http().get('/api/v1/status').set('x-api-key', key);
    expect(status.body).toMatchObject({ tier: 'large', usage: 1, quota: 100_000, remaining: 99_999 });
    // The admin console reads usage from auth's client record; the gateway copies it there within ~10 s.
    await eventually(
      async () => (await stack.sql('auth', `SELECT usage_month FROM clients WHERE id = $1`, [id]))[0].usage_month,
      (n) => n === 1,
      15_000,
    );
  });

  it('screens a client pinned to an older matching algorithm with that algorithm, and names it (issue #32)', async () => {
    // vigil-v3's containment blocks a listed name plus one word; vigil-v2 counted the word against
    // it. A bank that validated v2 keeps v2's answers until it moves, and every answer says which.
    const name = 'Jong Un Kim Sr';
    const current = await stack.client('large');
    const pinned = await stack.client('large');
    const config = {
      HIGH_SCORE: 0.85,
      MEDIUM_SCORE: 0.6,
      DB_SIM_THRESHOLD: 0.45,
      TRIGRAM_HITS_MIN: 2,
      LEV_DISTANCE_MAX: 2,
    };
    await stack.sql('auth', `UPDATE clients SET threshold_config = $1 WHERE id = $2`, [
      JSON.stringify({ ...config, ALGORITHM: 'vigil-v2' }),
      pinned.id,
    ]);
    const screen = async (key: string) => {
      const res = await http().post('/api/v1/screen').set('x-api-key', key).send({ name });
      expect(res.status).toBe(200);
      return res.body as { algorithm: string; status: string; topScore: number };
    };
    const v3 = await screen(current.key);
    const v2 = await screen(pinned.key);
    expect([v3.algorithm, v3.status]).toEqual(['vigil-v3', 'blocked']);
    expect([v2.algorithm, v2.status]).toEqual(['vigil-v2', 'review']);
    expect(v2.topScore).toBeLessThan(v3.topScore);
    const bulk = await http()
      .post('/api/v1/bulk-screen')
      .set('x-api-key', pinned.key)
      .send({ names: [name] });
    expect(bulk.status).toBe(200);
    expect([bulk.body.algorithm, bulk.body.results[0].status]).toEqual(['vigil-v2', 'review']);
  });

  it('gives a starter client 10 requests a minute: headers count down, the 11th is a 429 with Retry-After', async () => {
    const { key } = await stack.client('starter');
    const remaining: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await http().get('/api/v1/status').set('x-api-key', key);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('10');
      remaining.push(Number(res.headers['ratelimit-remaining']));
      const reset = Number(res.headers['ratelimit-reset']);
      expect(reset).toBeGreaterThan(0);
      expect(reset).toBeLessThanOrEqual(60);
    }
    expect(remaining).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    const limited = await http().get('/api/v1/status').set('x-api-key', key);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers['ratelimit-reset']).toBe(String(retryAfter));
  });

  it('counts each name once, stops at 100% with QUOTA_EXCEEDED, and publishes the 80% and 100% events', async () => {
    const client = await stack.client('large');
    await stack.setSubscription(client.id, { quotaMonth: 5 });
    const bulk = await http()
      .post('/api/v1/bulk-screen')
      .set('x-api-key', client.key)
      .send({ names: ['Kim Jong Un', 'Jane Doe', 'Ali Hassan', 'Maria Garcia'] });
    expect(bulk.status).toBe(200);
    expect(bulk.body.results).toHaveLength(4);
    expect((await http().get('/api/v1/status').set('x-api-key', client.key)).body).toMatchObject({
      usage: 4,
      remaining: 1,
    });
    const tooMany = await http()
      .post('/api/v1/bulk-screen')
      .set('x-api-key', client.key)
      .send({ names: ['A B', 'C D'] });
    expect(tooMany.status).toBe(429);
    expect(tooMany.body.code).toBe('QUOTA_EXCEEDED');
    expect((await http().post('/api/v1/screen').set('x-api-key', client.key).send({ name: 'John Smith' })).status).toBe(
      200,
    );
    const exhausted = await http().post('/api/v1/screen').set('x-api-key', client.key).send({ name: 'John Smith' });
    expect(exhausted.status).toBe(429);
    expect(exhausted.body.code).toBe('QUOTA_EXCEEDED');
    expect(Number(exhausted.headers['retry-after'])).toBeGreaterThan(0);

    const nc = await stack.connectNats();
    try {
      const jsm = await jetstreamManager(nc);
      const { value: events } = await eventually(
        async () => {
          const found: string[] = [];
          const info = await jsm.streams.info(streams.quota.name);
          for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
            const msg = await jsm.streams.getMessage(streams.quota.name, { seq }).catch(() => null);
            const event = msg?.json<{ event_type: string; client_id: string }>();
            if (event?.client_id === client.id) found.push(event.event_type);
          }
          return found;
        },
        (found) => found.length >= 2,
        5_000,
      );
      expect(events.sort()).toEqual(['quota_exceeded', 'quota_warning']);
    } finally {
      await nc.close();
    }
  });

  it('answers 402 SUBSCRIPTION_INACTIVE to a client whose subscription is not active', async () => {
    const client = await stack.client('small');
    await stack.setSubscription(client.id, { subscriptionStatus: 'payment_failed' });
    const res = await http().post('/api/v1/screen').set('x-api-key', client.key).send({ name: 'John Smith' });
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('SUBSCRIPTION_INACTIVE');
  });

  it('replays an idempotent POST byte for byte without counting it twice; another body with the key is a 422', async () => {
    const client = await stack.client('large');
    const first = await http()
      .post('/api/v1/screen')
      .set('x-api-key', client.key)
      .set('Idempotency-Key', 'order-42')
      .send({ name: 'Kim Jong Un' });
    expect(first.status).toBe(200);
    const again = await http()
      .post('/api/v1/screen')
      .set('x-api-key', client.key)
      .set('Idempotency-Key', 'order-42')
      .send({ name: 'Kim Jong Un' });
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await http().get('/api/v1/status').set('x-api-key', client.key)).body.usage).toBe(1);
    const other = await http()
      .post('/api/v1/screen')
      .set('x-api-key', client.key)
      .set('Idempotency-Key', 'order-42')
      .send({ name: 'Someone Else' });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const tooLong = await http()
      .post('/api/v1/screen')
      .set('x-api-key', client.key)
      .set('Idempotency-Key', 'k'.repeat(256))
      .send({ name: 'Kim Jong Un' });
    expect(tooLong.status).toBe(400);
    // The same key from another client is that client's own key.
    const stranger = await stack.client('large');
    const theirs = await http()
      .post('/api/v1/screen')
      .set('x-api-key', stranger.key)
      .set('Idempotency-Key', 'order-42')
      .send({ name: 'Someone Else' });
    expect(theirs.status).toBe(200);
    expect((await http().get('/api/v1/status').set('x-api-key', client.key)).body.usage).toBe(1);
  });

  it('keeps tenants apart: another client’s job is a 404, a key with another client’s session is a 403', async () => {
    const a = await member('large', 'analyst-a@example.com');
    const b = await member('large', 'analyst-b@example.com');
    const job = await http()
      .post('/api/v1/bulk-screen')
      .set('x-api-key', a.key)
      .send({ names: Array.from({ length: 1_001 }, (_, i) => `Person Number ${i}`) });
    expect(job.status).toBe(202);
    const jobUrl = `/api/v1/jobs/${job.body.jobId}`;
    expect((await http().get(jobUrl).set('x-api-key', a.key)).status).toBe(200);

    const attempts = [
      http().get(jobUrl).set('x-api-key', b.key),
      http().get(`${jobUrl}?format=csv`).set('x-api-key', b.key),
      http()
        .post('/api/screen')
        .set('x-api-key', b.key)
        .set('authorization', `Bearer ${a.token}`)
        .send({ name: 'Kim Jong Un' }),
      http()
        .post('/api/sanctions/bulk-search')
        .set('x-api-key', a.key)
        .set('authorization', `Bearer ${b.token}`)
        .send({ names: ['Kim Jong Un'] }),
      http().get('/api/sanctions/search?query=putin').set('x-api-key', b.key).set('authorization', `Bearer ${a.token}`),
      http().get('/api/sanctions/entity/x').set('x-api-key', a.key).set('authorization', `Bearer ${b.token}`),
    ];
    const answers = await Promise.all(attempts);
    expect(answers.filter((r) => r.status < 400)).toHaveLength(0);
    expect(answers.map((r) => r.status)).toEqual([404, 404, 403, 403, 403, 403]);

    const own = await http()
      .post('/api/screen')
      .set('x-api-key', a.key)
      .set('authorization', `Bearer ${a.token}`)
      .send({ name: 'Kim Jong Un' });
    expect(own.status).toBe(200);
    expect(own.body).toHaveProperty('blocked');
    expect(own.body).toHaveProperty('message');
    const profile = await http().get('/api/client').set('x-api-key', a.key).set('authorization', `Bearer ${a.token}`);
    expect(profile.status).toBe(200);
    expect(profile.body.id).toBe(a.id);
    expect(
      (await http().get('/api/client').set('x-api-key', b.key).set('authorization', `Bearer ${a.token}`)).status,
    ).toBe(403);
    // The public site's catalogue route needs no credentials (the Watchlists page shows it to anonymous visitors).
    const lists = (await http().get('/api/lists')).body.lists as Array<{
      source: string;
      entityCount: number;
    }>;
    const source = lists.find((l) => l.entityCount > 0)!.source;
    const download = await http()
      .get(`/api/sanctions/bulk-download?source=${source}`)
      .set('x-api-key', a.key)
      .set('authorization', `Bearer ${a.token}`);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toMatch(/text\/csv/);
    expect(download.text.split('\n').length).toBeGreaterThan(1);
    const noSession = await http().post('/api/screen').set('x-api-key', a.key).send({ name: 'Kim Jong Un' });
    expect(noSession.status).toBe(401);
    const b2 = (
      await http()
        .post('/auth/v1/token?grant_type=password')
        .send({ email: 'analyst-b@example.com', password: PASSWORD })
    ).body.access_token as string;
    expect(
      (
        await http()
          .get('/api/sanctions/search?query=putin')
          .set('x-api-key', b.key)
          .set('authorization', `Bearer ${b2}`)
      ).status,
    ).not.toBe(401);
    expect((await http().post('/auth/v1/logout').set('authorization', `Bearer ${b2}`)).status).toBeLessThan(300);
    // A signed-out session's token is refused although it has not expired.
    await eventually(
      () =>
        http().get('/api/sanctions/search?query=putin').set('x-api-key', b.key).set('authorization', `Bearer ${b2}`),
      (r) => r.status === 401,
      2_000,
    );
    const forged = await http()
      .post('/api/screen')
      .set('x-api-key', a.key)
      .set('authorization', `Bearer ${a.token.slice(0, -4)}AAAA`)
      .send({ name: 'Kim Jong Un' });
    expect(forged.status).toBe(401);
  });

  it('publishes FAILED_AUTH and RATE_LIMIT_VIOLATION security events with ip, endpoint and client name', async () => {
    const client = await stack.client('starter', 'Eventful Bank');
    for (let i = 0; i < 11; i++) await http().get('/api/v1/status').set('x-api-key', client.key);
    await http().get('/api/v1/status').set('x-api-key', 'e'.repeat(64));
    const nc = await stack.connectNats();
    try {
      const jsm = await jetstreamManager(nc);
      const { value } = await eventually(
        async () => {
          const info = await jsm.streams.info(streams.security.name);
          const events: Array<{
            event: string;
            details: { ip: string | null; endpoint: string; clientName: string | null; reason: string | null };
          }> = [];
          for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
            const msg = await jsm.streams.getMessage(streams.security.name, { seq }).catch(() => null);
            if (msg) events.push(msg.json());
          }
          return events;
        },
        (events) => events.some((e) => e.event === 'RATE_LIMIT_VIOLATION' && e.details.clientName === 'Eventful Bank'),
        5_000,
      );
      const violation = value.find(
        (e) => e.event === 'RATE_LIMIT_VIOLATION' && e.details.clientName === 'Eventful Bank',
      )!;
      expect(violation.details).toMatchObject({ endpoint: '/api/v1/status', reason: 'tier_starter' });
      expect(violation.details.ip).toMatch(/127\.0\.0\.1/);
      expect(value.some((e) => e.event === 'FAILED_AUTH' && e.details.reason === 'invalid_api_key')).toBe(true);
      expect(value.some((e) => e.event === 'CLIENT_ACCESS' && e.details.clientName === 'Eventful Bank')).toBe(true);
    } finally {
      await nc.close();
    }
  });

  it('turns a flood of bad keys from one address into 429s flagged as suspicious, yet lets valid credentials in', async () => {
    const strict = await stack.gateway({ FAILED_AUTH_PER_MINUTE: '5', REDIS_URL: '' });
    const strictHttp = () => request(strict.getHttpServer());
    const codes: number[] = [];
    for (let i = 0; i < 7; i++)
      codes.push((await strictHttp().get('/api/v1/status').set('x-api-key', `${i}`.repeat(64).slice(0, 64))).status);
    expect(codes).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const blocked = await strictHttp().get('/api/v1/status').set('x-api-key', 'f'.repeat(64));
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Valid credentials from the blocked address still get in (issue #15, finding 8): the block
    // stops guessing, and must not let an attacker sharing an address lock its owners out.
    const valid = await member('large', 'analyst-blocked@example.com');
    const keyed = await strictHttp().post('/api/v1/screen').set('x-api-key', valid.key).send({ name: 'Jane Doe' });
    expect(keyed.status).toBe(200);
    const dashboard = await strictHttp()
      .get('/api/status')
      .set('x-api-key', valid.key)
      .set('authorization', `Bearer ${valid.token}`);
    expect(dashboard.status).toBe(200);
    const session = await strictHttp()
      .get('/api/payment/client-by-email/x@example.com')
      .set('authorization', 'Bearer x');
    expect([session.status, session.body.code]).toEqual([429, 'RATE_LIMITED']);
  });

  it('believes X-Forwarded-For only from TRUSTED_PROXIES (none by default)', async () => {
    const badKeys = async (gateway: INestApplication) => {
      const codes: number[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await request(gateway.getHttpServer())
          .get('/api/v1/status')
          .set('x-api-key', `${i}`.repeat(64))
          // A new forged client address on every attempt, from a loopback hop.
          .set('x-forwarded-for', `203.0.113.${i + 1}`);
        codes.push(res.status);
      }
      return codes;
    };
    const untrusting = await stack.gateway({ FAILED_AUTH_PER_MINUTE: '5', REDIS_URL: '' });
    expect(await badKeys(untrusting)).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const behindProxy = await stack.gateway({
      FAILED_AUTH_PER_MINUTE: '5',
      REDIS_URL: '',
      TRUSTED_PROXIES: '127.0.0.1',
    });
    expect(await badKeys(behindProxy)).toEqual([401, 401, 401, 401, 401, 401, 401]);
  });

  it('counts failed credentials from IPv6 callers by their /64, as auth counts sign-ins', async () => {
    const gateway = await stack.gateway({ FAILED_AUTH_PER_MINUTE: '5', REDIS_URL: '', TRUSTED_PROXIES: '127.0.0.1' });
    const badKey = async (from: string, i: number) =>
      (
        await request(gateway.getHttpServer())
          .get('/api/v1/status')
          .set('x-api-key', `${i % 10}`.repeat(64))
          .set('x-forwarded-for', from)
      ).status;
    // One host of a /64 takes a new address for every guess: the limit still holds.
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push(await badKey(`2001:db8:1:2::${(i + 1).toString(16)}`, i));
    expect(codes).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // Another /64 is another subscriber, not blocked by the first one's guesses.
    expect(await badKey('2001:db8:1:3::1', 7)).toBe(401);
  });

  it('stops honouring a regenerated key within 5 s on a second gateway replica', async () => {
    const a = await member('large', 'analyst-c@example.com');
    const replica = await stack.gateway();
    const replicaHttp = () => request(replica.getHttpServer());
    expect((await replicaHttp().get('/api/v1/status').set('x-api-key', a.key)).status).toBe(200);
    expect((await http().get('/api/v1/status').set('x-api-key', a.key)).status).toBe(200);

    const regenerated = await http()
      .post('/api/settings/regenerate-api-key')
      .set('authorization', `Bearer ${a.token}`)
      .send({});
    expect(regenerated.status).toBeLessThan(300);
    const { elapsedMs } = await eventually(
      () => replicaHttp().get('/api/v1/status').set('x-api-key', a.key),
      (r) => r.status === 401,
      5_000,
    );
    // The key-revoked event evicts at once; the 5 s cache TTL alone would take up to 5 s.
    expect(elapsedMs).toBeLessThan(2_000);
    expect((await http().get('/api/v1/status').set('x-api-key', a.key)).status).toBe(401);
  });
});
