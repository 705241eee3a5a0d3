import { jest } from '@jest/globals';
import { subjects } from '@vigil/proto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { MonitoringStack, eventually } from './harness.js';

jest.setTimeout(120_000);

// Issue #35, "server to server": a bank's server holds its API key, not a 15-minute user session.
// With the key alone it manages webhooks, sends a signed test event and opens the live stream,
// for its own client only and within its plan; team roles do not apply to a key.

type Received = { headers: IncomingHttpHeaders; body: string; verified: boolean };

/** A client's receiver on 127.0.0.1: verifies each delivery with the standardwebhooks package, answers `status`. */
async function receiver(status: number) {
  const received: Received[] = [];
  let secret = '';
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      let verified = false;
      try {
        new Webhook(secret).verify(body, req.headers as Record<string, string>);
        verified = true;
      } catch {
        // recorded as unverified
      }
      received.push({ headers: req.headers, body, verified });
      res.writeHead(verified ? status : 400).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/vigil`,
    received,
    useSecret: (s: string) => void (secret = s),
    close: () => new Promise((r) => server.close(r)),
  };
}

describe('the API key alone: webhooks, test events and the live stream, scoped to its client and plan', () => {
  const stack = new MonitoringStack();
  const keyed = (key: string) => ({ headers: { 'x-api-key': key } });
  let a: { id: string; key: string };
  let b: { id: string; key: string };
  const closers: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    await stack.start(['auth', 'monitoring', 'gateway']);
    a = await stack.client('medium');
    b = await stack.client('medium');
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await stack.stop();
  });

  it('creates, lists, tests and deletes a webhook with the key; another client’s key sees none of it', async () => {
    const hook = await receiver(200);
    closers.push(hook.close);
    const created = await stack.http(keyed(a.key), 'POST', '/api/monitoring/webhooks', {
      url: hook.url,
      event_types: ['monitoring.alert'],
      description: 'core banking',
    });
    expect(created.status).toBe(201);
    const { webhook, secret } = created.body as { webhook: { id: string }; secret: string };
    hook.useSecret(secret);

    const listed = await stack.http(keyed(a.key), 'GET', '/api/monitoring/webhooks');
    expect(listed.status).toBe(200);
    expect(listed.body.webhooks.map((w: { id: string }) => w.id)).toEqual([webhook.id]);

    // B's key: not in its list, and every route on A's id is 404 (not 403: B learns nothing).
    expect((await stack.http(keyed(b.key), 'GET', '/api/monitoring/webhooks')).body.webhooks).toEqual([]);
    for (const [method, path] of [
      ['POST', `/api/monitoring/webhooks/${webhook.id}/test`],
      ['GET', `/api/monitoring/webhooks/${webhook.id}/deliveries`],
      ['DELETE', `/api/monitoring/webhooks/${webhook.id}`],
    ] as const) {
      const res = await stack.http(keyed(b.key), method, path);
      expect([method, path, res.status, res.body.code]).toEqual([method, path, 404, 'NOT_FOUND']);
    }
    expect(hook.received).toHaveLength(0);

    // The test event: signed as a real delivery, verified by the receiver, recorded in the log.
    const tested = await stack.http(keyed(a.key), 'POST', `/api/monitoring/webhooks/${webhook.id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body.delivery).toMatchObject({ event_type: 'webhook.test', status: 'delivered' });
    expect(tested.body.delivery.attempts).toEqual([expect.objectContaining({ status_code: 200, error: null })]);
    expect(hook.received).toHaveLength(1);
    const [got] = hook.received;
    expect(got!.verified).toBe(true);
    expect(got!.headers['webhook-id']).toBe(tested.body.delivery.id);
    expect(JSON.parse(got!.body)).toMatchObject({ type: 'webhook.test', data: { webhook_id: webhook.id } });
    const log = await stack.http(keyed(a.key), 'GET', `/api/monitoring/webhooks/${webhook.id}/deliveries`);
    expect(log.body.deliveries).toEqual([
      expect.objectContaining({ id: tested.body.delivery.id, event_type: 'webhook.test', status: 'delivered' }),
    ]);

    expect((await stack.http(keyed(a.key), 'DELETE', `/api/monitoring/webhooks/${webhook.id}`)).status).toBe(200);
    expect((await stack.http(keyed(a.key), 'GET', '/api/monitoring/webhooks')).body.webhooks).toEqual([]);
  });

  it('records a test event the receiver refuses as failed, with its status, and does not retry it', async () => {
    const hook = await receiver(503);
    closers.push(hook.close);
    const created = await stack.http(keyed(a.key), 'POST', '/api/monitoring/webhooks', {
      url: hook.url,
      event_types: ['bulk_job.completed'],
    });
    hook.useSecret(created.body.secret);
    const tested = await stack.http(keyed(a.key), 'POST', `/api/monitoring/webhooks/${created.body.webhook.id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body.delivery).toMatchObject({ status: 'failed', next_attempt_at: null });
    expect(tested.body.delivery.attempts).toEqual([expect.objectContaining({ status_code: 503 })]);
    await new Promise((r) => setTimeout(r, 500)); // several worker polls (100 ms in tests)
    expect(hook.received).toHaveLength(1);
  });

  it('holds a key to its plan: webhooks from small up, monitoring and the stream from medium up', async () => {
    const starter = await stack.client('starter');
    const small = await stack.client('small');
    const refused = await stack.http(keyed(starter.key), 'GET', '/api/monitoring/webhooks');
    expect([refused.status, refused.body.code]).toEqual([403, 'FEATURE_NOT_IN_PLAN']);
    expect((await stack.http(keyed(small.key), 'GET', '/api/monitoring/webhooks')).status).toBe(200);
    for (const path of ['/api/monitoring/entities', '/api/monitoring/stream']) {
      const res = await stack.http(keyed(small.key), 'GET', path);
      expect([path, res.status, res.body.code]).toEqual([path, 403, 'FEATURE_NOT_IN_PLAN']);
    }
    expect((await stack.http(keyed(a.key), 'GET', '/api/monitoring/entities')).status).toBe(200);
    // No credentials, or a key that is not one: 401, never another client's data.
    expect((await stack.http(null, 'GET', '/api/monitoring/webhooks')).status).toBe(401);
    expect((await stack.http(keyed('f'.repeat(64)), 'GET', '/api/monitoring/webhooks')).status).toBe(401);
  });

  it('opens the live stream with the key and pushes only its own client’s events', async () => {
    const open = async (key: string) => {
      const controller = new AbortController();
      closers.push(async () => controller.abort());
      const response = await fetch(`${stack.gatewayUrl}/api/monitoring/stream`, {
        headers: { 'x-api-key': key },
        signal: controller.signal,
      });
      expect([response.status, response.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      const state = { text: '' };
      void (async () => {
        try {
          for (;;) {
            const chunk = await reader.read();
            if (chunk.done) break;
            state.text += chunk.value;
          }
        } catch {
          // aborted
        }
      })();
      await eventually(
        () => Promise.resolve(state.text),
        (t) => t.includes('event: ready'),
        10_000,
      );
      return state;
    };
    const ofA = await open(a.key);
    const ofB = await open(b.key);
    const review = (name: string) => ({
      type: 'screening.review_required',
      review: { screening_id: name, searched_name: name, matched_name: null, score: 0.7, created_at: '2026-11-28' },
    });
    // What monitoring publishes for a client's live push.
    stack.nc.publish(subjects.monitoring.push(a.id), JSON.stringify(review('Only For A')));
    stack.nc.publish(subjects.monitoring.push(b.id), JSON.stringify(review('Only For B')));
    await eventually(
      () => Promise.resolve(ofA.text + ofB.text),
      (t) => t.includes('Only For A') && t.includes('Only For B'),
      10_000,
    );
    expect(ofA.text).toContain('event: screening.review_required');
    expect(ofA.text).not.toContain('Only For B');
    expect(ofB.text).not.toContain('Only For A');
  });
});
