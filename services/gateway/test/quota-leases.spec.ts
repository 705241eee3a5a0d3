// Quota leases with real gateway processes: two replicas share one client's quota through
// Postgres, a replica stopped with SIGTERM gives its unused block back, and the block of one
// killed with SIGKILL comes back (less what it promised) once its lease expires.
import { jest } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import { ApiStack, freePort } from './api-stack.js';
import { eventually } from './stack.js';

jest.setTimeout(180_000);

const LEASES = { QUOTA_LEASE_TTL_SECONDS: '2', QUOTA_LEASE_RENEW_MS: '500', RATE_LIMIT_SCALE: '100' };

describe('quota leases across gateway processes', () => {
  const stack = new ApiStack();
  const replicas: Array<{ url: string; child: ChildProcess }> = [];

  async function replica() {
    const port = await freePort();
    const child = stack.spawnGateway(port, LEASES);
    const url = `http://127.0.0.1:${port}`;
    await eventually(
      () =>
        fetch(`${url}/api/v1/plans`).then(
          (r) => r.status,
          () => 0,
        ),
      (status) => status === 200,
      30_000,
    );
    const started = { url, child };
    replicas.push(started);
    return started;
  }

  const screen = (url: string, key: string) =>
    fetch(`${url}/api/v1/screen`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ name: 'John Smith' }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { code?: string; period?: string } }));

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
    stack.sql('gateway', `SELECT holder, granted, promised FROM quota_leases WHERE client_id = $1`, [clientId]);

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

  it('recovers the block of a replica killed with SIGKILL once its lease expires, keeping what it promised', async () => {
    const doomed = await replica();
    const survivor = await replica();
    const client = await stack.client('large');
    expect((await screen(doomed.url, client.key)).status).toBe(200);
    const leased = await counter(client.id);
    expect(leased).toBeGreaterThan(1);
    await stop(doomed.child, 'SIGKILL');
    const [lease] = await leases(client.id);
    expect(lease.granted).toBe(leased);
    // Withheld until the lease expires (2 s), then the survivor's sweep returns the unpromised part.
    await eventually(
      () => leases(client.id),
      (rows) => rows.length === 0,
      10_000,
    );
    expect(await counter(client.id)).toBe(lease.promised);
    expect(lease.promised).toBeGreaterThanOrEqual(1);
    expect((await status(survivor.url, client.key)).usage).toBe(lease.promised);
  });
});
