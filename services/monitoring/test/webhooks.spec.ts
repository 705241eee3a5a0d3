import { jest } from '@jest/globals';
import { REVIEW_BAND_NAMES } from '@vigil/platform/testing';
import {
  DEFAULT_THRESHOLDS,
  contracts,
  streams,
  subjects,
  TIER_LIMITS,
  type MonitoringActor,
  type MonitoringCaller,
  type Tier,
} from '@vigil/proto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { ensureStreams } from '@vigil/platform';
import { Webhook } from 'standardwebhooks';
import { MonitoringStack, eventually } from './harness.js';

jest.setTimeout(180_000);

// Standard Webhooks deliveries to a local receiver (monitoring runs with WEBHOOK_ALLOW_LOOPBACK=true
// and a 100 ms retry base), triggered by real alerts: a sanctioned name monitored by the client.

const SANCTIONED = 'Vladimir Vladimirovich Putin';

type Received = { headers: IncomingHttpHeaders; body: string; status: number; at: number };

/** A receiver that answers each request with the next status of `script` (the last one repeats). */
async function receiver(script: number[]) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const status = script[Math.min(received.length, script.length - 1)]!;
      received.push({ headers: req.headers, body, status, at: Date.now() });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, received, close: () => new Promise((r) => server.close(r)) };
}

const caller = (clientId: string, tier: Tier = 'small'): MonitoringCaller => ({
  clientId,
  tier,
  feeds: [...TIER_LIMITS[tier].feeds],
  thresholds: { ...DEFAULT_THRESHOLDS },
});

/** A bank's server holding its key (the gateway names a change's actor; here, as it would). */
const SERVER: MonitoringActor = { kind: 'api_key', keyPrefix: 'vgl_test' };

describe('webhooks', () => {
  const stack = new MonitoringStack();
  const receivers: Array<{ close: () => Promise<unknown> }> = [];

  beforeAll(async () => {
    await stack.start(['screening', 'monitoring']);
    // The gateway owns BULK_JOB_EVENTS and creates it at boot; this stack runs no gateway.
    await ensureStreams(await jetstreamManager(stack.nc), [{ ...streams.bulkJobEvents, maxAgeDays: 1 }]);
  });

  /** What the gateway's bulk worker does when a job's last chunk is stored (the message id optional here). */
  const announceCompleted = (event: object, msgID?: string) =>
    jetstream(stack.nc).publish(subjects.gateway.bulkJobCompleted, JSON.stringify(event), msgID ? { msgID } : {});
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await stack.stop();
  });

  /** A client with one endpoint on `url`, then a sanctioned name to monitor: its alert is delivered. */
  async function clientWithEndpoint(clientId: string, url: string) {
    const created = await stack.request(contracts.monitoring.webhooks.create, {
      caller: caller(clientId),
      actor: SERVER,
      url,
      event_types: ['monitoring.alert'],
    });
    expect(created.secret).toMatch(/^whsec_/);
    await stack.request(contracts.monitoring.entities.create, { caller: caller(clientId), entity_name: SANCTIONED });
    return created;
  }

  const deliveries = (clientId: string, id: string) =>
    stack.request(contracts.monitoring.webhooks.deliveries, { caller: caller(clientId), id });

  it('delivers an alert signed per Standard Webhooks, verified with the standardwebhooks verifier', async () => {
    const hook = await receiver([200]);
    receivers.push(hook);
    const { webhook, secret } = await clientWithEndpoint('wh-ok', hook.url);
    await eventually(
      async () => hook.received.length,
      (n) => n >= 1,
      30_000,
    );
    const [first] = hook.received;
    expect(first!.headers['webhook-id']).toBeTruthy();
    expect(first!.headers['webhook-timestamp']).toMatch(/^\d+$/);
    expect(first!.headers['webhook-signature']).toMatch(/^v1,/);
    const verified = new Webhook(secret).verify(first!.body, {
      'webhook-id': String(first!.headers['webhook-id']),
      'webhook-timestamp': String(first!.headers['webhook-timestamp']),
      'webhook-signature': String(first!.headers['webhook-signature']),
    }) as { type: string; data: { entity_name: string; matched_sanctioned_name: string; severity: string } };
    expect(verified.type).toBe('monitoring.alert');
    expect(verified.data.entity_name).toBe(SANCTIONED);
    expect(verified.data.matched_sanctioned_name).toMatch(/PUTIN/);
    // A tampered body does not verify.
    expect(() =>
      new Webhook(secret).verify(first!.body.replace('Putin', 'Pution'), {
        'webhook-id': String(first!.headers['webhook-id']),
        'webhook-timestamp': String(first!.headers['webhook-timestamp']),
        'webhook-signature': String(first!.headers['webhook-signature']),
      }),
    ).toThrow();
    const { value } = await eventually(
      () => deliveries('wh-ok', webhook.id),
      (r) => r.deliveries[0]?.status === 'delivered',
      10_000,
    );
    expect(value.deliveries[0]!.attempts.map((a) => a.status_code)).toEqual([200]);
  });

  it('keeps each secret sealed at rest, seals rows stored plain before sealing, and still signs with it', async () => {
    const storedSecret = async (id: string) =>
      (
        await stack.db.query<{ secret: string }>(
          `SELECT secret FROM ${stack.schema('monitoring')}.webhook_endpoints WHERE id = $1`,
          [id],
        )
      ).rows[0]!.secret;
    const hook = await receiver([200]);
    receivers.push(hook);
    const { webhook, secret } = await stack.request(contracts.monitoring.webhooks.create, {
      caller: caller('wh-sealed'),
      actor: SERVER,
      url: hook.url,
      event_types: ['monitoring.alert'],
    });
    const key = secret.slice('whsec_'.length);
    const sealed = await storedSecret(webhook.id);
    expect(sealed).toMatch(/^enc:v1:/);
    expect(sealed).not.toContain(key);
    expect(sealed).not.toContain(Buffer.from(key, 'base64').toString('hex'));

    // A row written before sealing existed: the migration seals it when it runs.
    await stack.db.query(`UPDATE ${stack.schema('monitoring')}.webhook_endpoints SET secret = $2 WHERE id = $1`, [
      webhook.id,
      secret,
    ]);
    await stack.db.query(`DELETE FROM ${stack.schema('monitoring')}.migrations WHERE name = $1`, [
      'SealWebhookSecrets1764200000000',
    ]);
    await stack.migrate('monitoring');
    const resealed = await storedSecret(webhook.id);
    expect(resealed).toMatch(/^enc:v1:/);
    expect(resealed).not.toContain(key);
    const everyRow = await stack.db.query<{ plain: number }>(
      `SELECT count(*)::int AS plain FROM ${stack.schema('monitoring')}.webhook_endpoints WHERE secret NOT LIKE 'enc:v1:%'`,
    );
    expect(everyRow.rows[0]!.plain).toBe(0);

    // The deliverer opens it: the receiver verifies with the secret it was shown once.
    await stack.request(contracts.monitoring.entities.create, { caller: caller('wh-sealed'), entity_name: SANCTIONED });
    await eventually(
      async () => hook.received.length,
      (n) => n >= 1,
      30_000,
    );
    const [first] = hook.received;
    expect(
      (
        new Webhook(secret).verify(first!.body, {
          'webhook-id': String(first!.headers['webhook-id']),
          'webhook-timestamp': String(first!.headers['webhook-timestamp']),
          'webhook-signature': String(first!.headers['webhook-signature']),
        }) as { type: string }
      ).type,
    ).toBe('monitoring.alert');
  });

  it('retries 500 three times with backoff, then 200: delivered once more and marked delivered', async () => {
    const hook = await receiver([500, 500, 500, 200]);
    receivers.push(hook);
    const { webhook } = await clientWithEndpoint('wh-retry', hook.url);
    const { value } = await eventually(
      () => deliveries('wh-retry', webhook.id),
      (r) => r.deliveries[0]?.status === 'delivered',
      30_000,
    );
    expect(value.deliveries).toHaveLength(1);
    expect(value.deliveries[0]!.attempts.map((a) => a.status_code)).toEqual([500, 500, 500, 200]);
    expect(value.deliveries[0]!.delivered_at).not.toBeNull();
    await new Promise((r) => setTimeout(r, 1_000));
    expect(hook.received.map((r) => r.status)).toEqual([500, 500, 500, 200]);
    // The same message each time: one webhook-id, so the receiver can de-duplicate.
    expect(new Set(hook.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    // Exponential backoff: the gaps grow (100 ms base: ~100, ~200, ~400 ms).
    const at = hook.received.map((r) => r.at);
    const gaps = [at[1]! - at[0]!, at[2]! - at[1]!, at[3]! - at[2]!];
    process.stdout.write(`retry gaps: ${gaps.join(', ')} ms\n`);
    expect(gaps[0]).toBeGreaterThanOrEqual(100);
    expect(gaps[2]).toBeGreaterThanOrEqual(400);
    expect(gaps[2]).toBeGreaterThan(gaps[0]!);
  });

  it('rotates a secret: the test event after it verifies with the new secret only, and the change is on the chain', async () => {
    const hook = await receiver([200]);
    receivers.push(hook);
    const created = await stack.request(contracts.monitoring.webhooks.create, {
      caller: caller('wh-rotate'),
      actor: SERVER,
      url: hook.url,
      event_types: ['monitoring.alert'],
    });
    const rotated = await stack.request(contracts.monitoring.webhooks.rotateSecret, {
      caller: caller('wh-rotate'),
      actor: SERVER,
      id: created.webhook.id,
    });
    expect(rotated.webhook.id).toBe(created.webhook.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    const { delivery } = await stack.request(contracts.monitoring.webhooks.test, {
      caller: caller('wh-rotate'),
      id: created.webhook.id,
    });
    expect(delivery.status).toBe('delivered');
    const [sent] = hook.received;
    const headers = {
      'webhook-id': String(sent!.headers['webhook-id']),
      'webhook-timestamp': String(sent!.headers['webhook-timestamp']),
      'webhook-signature': String(sent!.headers['webhook-signature']),
    };
    expect((new Webhook(rotated.secret).verify(sent!.body, headers) as { type: string }).type).toBe('webhook.test');
    expect(() => new Webhook(created.secret).verify(sent!.body, headers)).toThrow();
    // Another client cannot rotate it: 404, as for any endpoint it does not own.
    await expect(
      stack.request(contracts.monitoring.webhooks.rotateSecret, {
        caller: caller('wh-other'),
        actor: SERVER,
        id: created.webhook.id,
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a 410 disables the endpoint and stops its deliveries', async () => {
    const hook = await receiver([410]);
    receivers.push(hook);
    const { webhook } = await clientWithEndpoint('wh-gone', hook.url);
    const { value } = await eventually(
      () => stack.request(contracts.monitoring.webhooks.list, { caller: caller('wh-gone') }),
      (r) => r.webhooks[0]?.enabled === false,
      30_000,
    );
    expect(value.webhooks[0]!.disabled_reason).toMatch(/410/);
    const log = await deliveries('wh-gone', webhook.id);
    expect(log.deliveries[0]).toMatchObject({ status: 'failed' });
    expect(log.deliveries[0]!.attempts.map((a) => a.status_code)).toEqual([410]);
    // A new alert for this client queues nothing for the disabled endpoint.
    await stack.request(contracts.monitoring.entities.create, {
      caller: caller('wh-gone'),
      entity_name: 'Kim Jong Un',
    });
    await new Promise((r) => setTimeout(r, 3_000));
    expect(hook.received).toHaveLength(1);
    expect((await deliveries('wh-gone', webhook.id)).deliveries).toHaveLength(1);
  });

  it('refuses 10.0.0.1 and 169.254.169.254 at registration, and starter clients', async () => {
    for (const url of ['https://10.0.0.1/hook', 'https://169.254.169.254/latest/meta-data/']) {
      await expect(
        stack.request(contracts.monitoring.webhooks.create, {
          caller: caller('wh-bad'),
          actor: SERVER,
          url,
          event_types: ['monitoring.alert'],
        }),
      ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    await expect(
      stack.request(contracts.monitoring.webhooks.create, {
        caller: caller('wh-starter', 'starter'),
        actor: SERVER,
        url: 'https://example.com/hook',
        event_types: ['monitoring.alert'],
      }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const listed = await stack.request(contracts.monitoring.webhooks.list, {
      caller: caller('wh-bad'),
    });
    expect(listed.webhooks).toEqual([]);
  });

  it('delivers screening.review_required for a review item and bulk_job.completed for a finished job', async () => {
    const hook = await receiver([200]);
    receivers.push(hook);
    const { secret } = await stack.request(contracts.monitoring.webhooks.create, {
      caller: caller('wh-events'),
      actor: SERVER,
      url: hook.url,
      event_types: ['screening.review_required', 'bulk_job.completed'],
    });
    // A screening in the review band for this client (the first of these names that lands there).
    let review: string | undefined;
    for (const name of REVIEW_BAND_NAMES) {
      const screened = await stack.request(contracts.screening.screen, {
        ...caller('wh-events'),
        entity: { name },
      });
      if (screened.status === 'review') {
        review = name;
        break;
      }
    }
    expect(review).toBeDefined();
    // What the gateway's bulk worker publishes when a job's last chunk is stored.
    const jobId = '3f0c4a52-8a3e-4d7b-9d5e-0a0b6c1d2e3f';
    const completed = { jobId, clientId: 'wh-events', total: 1200, completedAt: new Date().toISOString() };
    // Twice, as a redelivered last chunk would (past JetStream's de-duplication: no message id).
    await announceCompleted(completed);
    await announceCompleted(completed);
    await eventually(
      async () => hook.received.length,
      (n) => n >= 2,
      30_000,
    );
    await new Promise((r) => setTimeout(r, 1_000));
    const payloads = hook.received.map(
      (r) =>
        new Webhook(secret).verify(r.body, {
          'webhook-id': String(r.headers['webhook-id']),
          'webhook-timestamp': String(r.headers['webhook-timestamp']),
          'webhook-signature': String(r.headers['webhook-signature']),
        }) as { type: string; data: Record<string, unknown> },
    );
    const reviews = payloads.filter((p) => p.type === 'screening.review_required');
    expect(reviews.map((p) => p.data.searched_name)).toEqual([review]);
    // Announced twice, delivered once.
    expect(payloads.filter((p) => p.type === 'bulk_job.completed').map((p) => p.data)).toEqual([
      { job_id: jobId, total: 1200, completed_at: completed.completedAt },
    ]);
  });

  it('announces bulk_job.completed at least once: a job that finished while monitoring was down is delivered after it restarts, once', async () => {
    const hook = await receiver([200]);
    receivers.push(hook);
    const { secret } = await stack.request(contracts.monitoring.webhooks.create, {
      caller: caller('wh-down'),
      actor: SERVER,
      url: hook.url,
      event_types: ['bulk_job.completed'],
    });
    await stack.kill('monitoring');
    const jobId = '0d4b8a1e-5c2f-4e6a-9b7d-1f2e3a4b5c6d';
    const completed = { jobId, clientId: 'wh-down', total: 5000, completedAt: new Date().toISOString() };
    await announceCompleted(completed, `bulk-job-completed:${jobId}`);
    await announceCompleted(completed);
    expect(hook.received).toEqual([]);
    stack.startService('monitoring');
    await eventually(
      async () => hook.received.length,
      (n) => n >= 1,
      30_000,
    );
    await new Promise((r) => setTimeout(r, 1_500));
    expect(hook.received).toHaveLength(1);
    const delivered = new Webhook(secret).verify(hook.received[0]!.body, {
      'webhook-id': String(hook.received[0]!.headers['webhook-id']),
      'webhook-timestamp': String(hook.received[0]!.headers['webhook-timestamp']),
      'webhook-signature': String(hook.received[0]!.headers['webhook-signature']),
    }) as { type: string; data: Record<string, unknown> };
    expect(delivered).toMatchObject({
      type: 'bulk_job.completed',
      data: { job_id: jobId, total: 5000, completed_at: completed.completedAt },
    });
  });
});
