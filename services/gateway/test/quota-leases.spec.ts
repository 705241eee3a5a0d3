// Quota leases with real gateway processes and the real screening service: two replicas share one
// client's quota through Postgres, a replica stopped with SIGTERM settles its lease to the screens
// it answered, and the lease of one killed with SIGKILL is settled by the survivor once it expired:
// the monthly usage then equals the screens answered exactly (issue #24), retries included.
import { jest } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { SETTLE_GRACE_SECONDS } from '../src/quotas/quota-leases.repository.js';
import { ApiStack } from './api-stack.js';
import { eventually } from './stack.js';

jest.setTimeout(180_000);

const LEASES = { QUOTA_LEASE_TTL_SECONDS: '2', QUOTA_LEASE_RENEW_MS: '500', RATE_LIMIT_SCALE: '100' };

describe('quota leases across gateway processes', () => {
  const stack = new ApiStack();
  const replicas: Array<{ url: string; child: ChildProcess }> = [];

  async function replica() {
    const started = await stack.gatewayReplica(LEASES);
    replicas.push(started);
    return started;
  }

  const screen = (url: string, key: string, idempotencyKey?: string) =>
    fetch(`${url}/api/v1/screen`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': key,
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      body: JSON.stringify({ name: 'John Smith' }),
    }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { code?: string; period?: string; screeningId?: string },
    }));

  const status = (url: string, key: string) =>
    fetch(`${url}/api/v1/status`, { headers: { 'x-api-key': key } }).then(
      async (r) => (await r.json()) as { usage: number; period: string },
    );

  const stop = (child: ChildProcess, signal: NodeJS.Signals) =>
    new Promise<number | null>((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.kill(signal);
    });

  const counter = async (clientId: string) =>
    (await stack.sql('gateway', `SELECT used FROM quota_usage WHERE client_id = $1`, [clientId]))[0]?.used ?? 0;
  const leases = (clientId: string) =>
    stack.sql('gateway', `SELECT holder, granted, served FROM quota_leases WHERE client_id = $1`, [clientId]);
  const logged = async (clientId: string) =>
    (await stack.sql('screening', `SELECT count(*)::int AS n FROM screening_logs WHERE client_id = $1`, [clientId]))[0]
      .n;

  beforeAll(() => stack.start());
  afterAll(() => stack.stop());

  it('answers exactly the last 50 screens when 16 callers race across two replicas, each logged once', async () => {
    const [a, b] = [await replica(), await replica()];
    const client = await stack.client('large');
    await stack.setSubscription(client.id, { quotaMonth: 10_000 });
    const { period } = await status(a.url, client.key);
    await stack.sql('gateway', `INSERT INTO quota_usage (client_id, period, used) VALUES ($1, $2, 9950)`, [
      client.id,
      period,
    ]);
    const answers: Array<{ status: number; code?: string }> = [];
    await Promise.all(
      Array.from({ length: 16 }, async (_, caller) => {
        // Alternate replicas; stop once both refused in a row (a block left on one is still served).
        let refusedInARow = 0;
        for (let i = caller; refusedInARow < 2; i++) {
          const res = await screen(i % 2 === 0 ? a.url : b.url, client.key);
          answers.push({ status: res.status, code: res.body.code });
          refusedInARow = res.status === 200 ? 0 : refusedInARow + 1;
        }
      }),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(50);
    expect(new Set(answers.filter((r) => r.status !== 200).map((r) => `${r.status} ${r.code}`))).toEqual(
      new Set(['429 QUOTA_EXCEEDED']),
    );
    expect(await counter(client.id)).toBe(10_000);
    const logged = await stack.sql('screening', `SELECT count(*)::int AS n FROM screening_logs WHERE client_id = $1`, [
      client.id,
    ]);
    expect(logged[0].n).toBe(50);
  });

  it('gives a leased but unused block back when a replica is stopped with SIGTERM', async () => {
    const a = await replica();
    const client = await stack.client('large');
    expect((await screen(a.url, client.key)).status).toBe(200);
    // One statement leased a block beyond this request; the replica counts the rest in memory.
    expect(await counter(client.id)).toBeGreaterThan(1);
    expect(await leases(client.id)).toHaveLength(1);
    expect((await status(a.url, client.key)).usage).toBe(1);
    await stop(a.child, 'SIGTERM');
    expect(await counter(client.id)).toBe(1);
    expect(await leases(client.id)).toEqual([]);
  });

  it('settles the lease of a replica killed with SIGKILL to the screens it answered, once the lease expired', async () => {
    const doomed = await replica();
    const survivor = await replica();
    const client = await stack.client('large');
    for (let i = 0; i < 3; i++) expect((await screen(doomed.url, client.key)).status).toBe(200);
    const leased = await counter(client.id);
    expect(leased).toBeGreaterThan(3);
    await stop(doomed.child, 'SIGKILL');
    const [lease] = await leases(client.id);
    expect(lease.granted).toBe(leased);
    // Withheld until the lease expires (2 s) and the settle grace passed, then the survivor's sweep
    // settles it to the screens screening logged under it.
    await eventually(
      () => leases(client.id),
      (rows) => rows.length === 0,
      (2 + SETTLE_GRACE_SECONDS) * 1000 + 10_000,
    );
    expect(await counter(client.id)).toBe(3);
    expect((await status(survivor.url, client.key)).usage).toBe(3);
  });

  // The resilience suite's shape in small: callers retry under the same Idempotency-Key until
  // answered, a replica is SIGKILLed while requests are in flight on it, and after settlement the
  // usage is exactly the screens answered: nothing charged for what the kill lost before
  // screening, and a screen logged whose answer the kill lost is charged once, however retried.
  it('charges exactly the screens answered when a replica dies mid-load and callers retry', async () => {
    const doomed = await replica();
    const survivor = await replica();
    const client = await stack.client('large');
    const answered = new Map<string, string>();
    let killed = false;
    const caller = async (n: number) => {
      for (let i = 0; i < 12; i++) {
        const key = randomUUID();
        for (let attempt = 0; ; attempt++) {
          const url = attempt === 0 && !killed && (n + i) % 2 === 0 ? doomed.url : survivor.url;
          const res = await screen(url, client.key, key).catch(() => undefined);
          if (res?.status === 200) {
            answered.set(key, res.body.screeningId!);
            break;
          }
          if (res && res.status < 500 && res.status !== 429 && res.status !== 409)
            throw new Error(`refused: ${res.status}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, (_, n) => caller(n)));
    await new Promise((r) => setTimeout(r, 400));
    killed = true;
    await stop(doomed.child, 'SIGKILL');
    await load;
    expect(answered.size).toBe(96);
    // Each answered operation logged once, under its own screening id.
    expect(new Set(answered.values()).size).toBe(96);
    expect(await logged(client.id)).toBe(96);
    await stop(survivor.child, 'SIGTERM');
    // The survivor settled its own lease on SIGTERM; the dead one's awaits a sweep by a live replica.
    const sweeper = await replica();
    await eventually(
      () => leases(client.id),
      (rows) => rows.length === 0,
      (2 + SETTLE_GRACE_SECONDS) * 1000 + 15_000,
    );
    expect(await counter(client.id)).toBe(96);
    expect((await status(sweeper.url, client.key)).usage).toBe(96);
  });
});
