// RpcClient against a real nats-server: its replies come to one inbox subscription of its own,
// so what the client library's request() did for each call (deadline, no responders, a closed
// connection, concurrent replies matched to their requests) is checked here.
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import { contracts } from '@vigil/proto';
import { runWithRequestId } from '../src/context.js';
import { DomainError } from '../src/errors.js';
import { Nats, RpcClient } from '../src/nats.js';
import { startNats, type PrivateNats } from '../src/testing.js';

let nats: PrivateNats;
let client: NatsConnection;
let rpc: RpcClient;

/** A responder in Nest's envelope: `{response, isDisposed, id}` or `{err}`. */
function respond(
  subject: string,
  answer: (data: { data: unknown; id: string }, hdrs: ReturnType<typeof headers> | undefined) => unknown,
) {
  const responder = nats.nc.subscribe(subject, {
    callback: (_error, msg) => {
      const request = msg.json<{ data: unknown; id: string }>();
      const reply = answer(request, msg.headers);
      if (reply !== undefined) msg.respond(JSON.stringify(reply));
    },
  });
  return responder;
}

beforeAll(async () => {
  nats = await startNats();
  client = await connect(nats.options());
  rpc = new RpcClient(new Nats(client), 2_000);
});

afterAll(async () => {
  await client?.close();
  await nats?.stop();
});

describe('RpcClient', () => {
  it('matches concurrent replies to their requests and passes the request id on', async () => {
    const responder = respond('test.echo', ({ data, id }, hdrs) => ({
      response: { echoed: data, requestId: hdrs?.get('x-request-id') },
      isDisposed: true,
      id,
    }));
    await nats.nc.flush();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        runWithRequestId(`req-${i}`, () => rpc.requestUnchecked('test.echo', { i })),
      ),
    );
    expect(answers).toEqual(Array.from({ length: 50 }, (_, i) => ({ echoed: { i }, requestId: `req-${i}` })));
    responder.unsubscribe();
  });

  it('answers the reply bytes of a contract request without parsing them', async () => {
    const lists = { lists: [] };
    const responder = respond(contracts.screening.lists.subject, ({ id }) => ({
      response: lists,
      isDisposed: true,
      id,
    }));
    await nats.nc.flush();
    const bytes = await rpc.requestBytes(contracts.screening.lists, {});
    expect(new TextDecoder().decode(bytes)).toBe(JSON.stringify(lists));
    responder.unsubscribe();
  });

  it("turns the remote's error into a DomainError with its code", async () => {
    const responder = respond('test.refuse', () => ({ err: { code: 'QUOTA_EXCEEDED', message: 'no more' } }));
    await nats.nc.flush();
    await expect(rpc.requestUnchecked('test.refuse', {})).rejects.toMatchObject({
      code: 'QUOTA_EXCEEDED',
      message: 'no more',
    });
    responder.unsubscribe();
  });

  it('fails at once with SERVICE_UNAVAILABLE when nobody listens on the subject', async () => {
    const started = Date.now();
    const failure = await rpc.requestUnchecked('test.nobody', {}).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DomainError);
    expect(failure).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('fails with UPSTREAM_TIMEOUT after the deadline, and a late reply changes nothing', async () => {
    const late: Array<() => void> = [];
    const responder = nats.nc.subscribe('test.slow', {
      callback: (_error, msg) => {
        late.push(() => msg.respond(JSON.stringify({ response: 'late' })));
      },
    });
    await nats.nc.flush();
    const started = Date.now();
    await expect(rpc.requestUnchecked('test.slow', {}, { timeoutMs: 300 })).rejects.toMatchObject({
      code: 'UPSTREAM_TIMEOUT',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    for (const reply of late) reply();
    await nats.nc.flush();
    responder.unsubscribe();
  });

  it('fails pending and later requests with SERVICE_UNAVAILABLE once the connection has closed', async () => {
    const own = await connect(nats.options());
    const closing = new RpcClient(new Nats(own), 5_000);
    const responder = nats.nc.subscribe('test.never', { callback: () => undefined });
    await nats.nc.flush();
    const pending = closing.requestUnchecked('test.never', {}).catch((error: unknown) => error);
    await own.flush();
    await own.close();
    expect(await pending).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await expect(closing.requestUnchecked('test.never', {})).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    responder.unsubscribe();
  });
});
