import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { NatsRecordSerializer } from '@nestjs/microservices/serializers/nats-record.serializer.js';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import { REQUEST_ID_HEADER, contract } from '@vigil/proto';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { currentRequestId } from './context.js';
import { DomainError } from './errors.js';
import { metricsText } from './metrics.js';
import { Nats, RpcClient } from './nats.js';
import { Responder } from './responder.js';
import { startNats, type PrivateNats } from './testing.js';
import { currentTraceIds, startTracing } from './tracing.js';

const greet = contract(
  'test.v1.greet-responder',
  z.object({ name: z.string().trim().min(1) }),
  z.object({ greeting: z.string() }),
);

/** What Nest's NATS server publishes for a reply packet: the bytes a responder must match. */
const nestBytes = (packet: Record<string, unknown>) => new NatsRecordSerializer().serialize(packet).data;

describe('Responder', () => {
  jest.setTimeout(20_000);
  let nats: PrivateNats;
  let served: NatsConnection;
  let responder: Responder;
  let rpc: RpcClient;
  const seen: Array<{ name: string; requestId: string | undefined; traceId: string | undefined }> = [];

  beforeAll(async () => {
    // The request log lines are the responder's, not this test's concern.
    Logger.overrideLogger(false);
    startTracing('test');
    nats = await startNats();
    served = await connect(nats.options());
    responder = new Responder(new Nats(served), 'test');
    responder.serve(
      greet,
      async (request) => {
        seen.push({ name: request.name, requestId: currentRequestId(), traceId: currentTraceIds()?.traceId });
        if (request.name === 'broken') return { nope: true } as unknown as { greeting: string };
        if (request.name === 'busy') throw new DomainError('SERVICE_UNAVAILABLE', 'Try later.', undefined, 3);
        if (request.name === 'crash') throw new Error('SELECT * FROM secrets');
        return { greeting: `hello ${request.name}`, extra: 1 } as { greeting: string };
      },
      'greeting request',
    );
    await served.flush();
    rpc = new RpcClient(new Nats(nats.nc), 5_000);
  });

  afterAll(async () => {
    await responder.onModuleDestroy();
    await served.close();
    await nats.stop();
  });

  beforeEach(() => (seen.length = 0));

  const raw = async (data: unknown, id: unknown = '7') =>
    new TextDecoder().decode(
      (await nats.nc.request(greet.subject, JSON.stringify({ pattern: greet.subject, data, id }), { timeout: 5_000 })).data,
    );

  it('answers in the envelope Nest answers in, byte for byte, to RpcClient and to a pass-through edge', async () => {
    expect(await raw({ name: ' Ada ' })).toBe(nestBytes({ response: { greeting: 'hello Ada', extra: 1 }, isDisposed: true, id: '7' }));
    expect(await raw({ name: 'Ada' }, 12)).toBe(nestBytes({ response: { greeting: 'hello Ada', extra: 1 }, isDisposed: true, id: 12 }));
    await expect(rpc.request(greet, { name: 'Bo' })).resolves.toEqual({ greeting: 'hello Bo', extra: 1 });
    const bytes = await rpc.requestBytes(greet, { name: 'Cy' });
    expect(JSON.parse(new TextDecoder().decode(bytes))).toEqual({ greeting: 'hello Cy', extra: 1 });
    expect(seen.map((s) => s.name)).toEqual(['Ada', 'Ada', 'Bo', 'Cy']);
  });

  it('refuses an invalid request without running the handler, as @Handles does', async () => {
    const error = await rpc.requestUnchecked(greet.subject, { name: '' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'The greeting request is invalid.', errors: [{ pointer: '/name' }] });
    expect(seen).toEqual([]);
    const wire = JSON.parse(await raw({}));
    expect(wire).toEqual({ err: expect.objectContaining({ code: 'VALIDATION_FAILED' }), isDisposed: true, id: '7' });
  });

  it('maps failures as RpcErrorFilter does: a domain error keeps its code, anything else is INTERNAL', async () => {
    expect(await raw({ name: 'busy' })).toBe(
      nestBytes({ err: { code: 'SERVICE_UNAVAILABLE', message: 'Try later.', retryAfterSeconds: 3 }, isDisposed: true, id: '7' }),
    );
    expect(await raw({ name: 'crash' })).toBe(nestBytes({ err: { code: 'INTERNAL', message: 'Internal error.' }, isDisposed: true, id: '7' }));
    // A reply that breaks the contract never leaves.
    await expect(rpc.request(greet, { name: 'broken' })).rejects.toMatchObject({ code: 'INTERNAL' });
  });

  it("runs the handler under the caller's request id and trace, and counts the request", async () => {
    const traceId = randomBytes(16).toString('hex');
    const hdrs = headers();
    hdrs.set(REQUEST_ID_HEADER, 'req-42');
    hdrs.set('traceparent', `00-${traceId}-${randomBytes(8).toString('hex')}-01`);
    await nats.nc.request(greet.subject, JSON.stringify({ pattern: greet.subject, data: { name: 'Di' }, id: '1' }), {
      headers: hdrs,
      timeout: 5_000,
    });
    expect(seen).toEqual([{ name: 'Di', requestId: 'req-42', traceId }]);
    const { body } = await metricsText();
    expect(body).toMatch(/vigil_nats_handled_total\{subject="test\.v1\.greet-responder",outcome="ok"\} [1-9]/);
    expect(body).toMatch(/vigil_nats_handled_total\{subject="test\.v1\.greet-responder",outcome="error"\} [1-9]/);
  });

  it('answers each request once across replicas in the same queue group', async () => {
    const other = await connect(nats.options());
    const replica = new Responder(new Nats(other), 'test');
    replica.serve(greet, (request) => ({ greeting: `hi ${request.name}` }));
    await other.flush();
    try {
      const inbox = `_INBOX.${randomBytes(6).toString('hex')}`;
      const replies: string[] = [];
      const sub = nats.nc.subscribe(inbox, { callback: (_e, m) => void replies.push(m.string()) });
      for (let i = 0; i < 20; i++) nats.nc.publish(greet.subject, JSON.stringify({ pattern: greet.subject, data: { name: `n${i}` }, id: String(i) }), { reply: inbox });
      await new Promise((r) => setTimeout(r, 500));
      sub.unsubscribe();
      expect(replies).toHaveLength(20);
      expect(new Set(replies.map((r) => (JSON.parse(r) as { id: string }).id)).size).toBe(20);
    } finally {
      await replica.onModuleDestroy();
      await other.close();
    }
  });

  it('drops a message that is not a request (no JSON, or no id) instead of answering it', async () => {
    await expect(nats.nc.request(greet.subject, 'not json', { timeout: 300 })).rejects.toThrow();
    await expect(nats.nc.request(greet.subject, JSON.stringify({ pattern: greet.subject, data: { name: 'Ed' } }), { timeout: 300 })).rejects.toThrow();
    expect(seen).toEqual([]);
  });
});
