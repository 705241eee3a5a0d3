// EventPublisher.publishStored against a real nats-server: the outbox relay's publishes wait for
// their acknowledgements on an inbox of the publisher's own, so what js.publish did for each
// (a message stored once under its id, the stream's refusal, no stream, no answer, a closed
// connection) is checked here, each outcome at its own message's index.
import { DiscardPolicy, JetStreamApiError } from '@nats-io/jetstream';
import { NoRespondersError, RequestError, TimeoutError, connect, type NatsConnection } from '@nats-io/transport-node';
import { EventPublisher, type StoredEvent } from '../src/events.js';
import { Nats } from '../src/nats.js';
import { startNats, type PrivateNats } from '../src/testing.js';

let nats: PrivateNats;
let client: NatsConnection;
let natsOfService: Nats;
let publisher: EventPublisher;

const TRACE = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const event = (subject: string, n: number, traceparent: string | null = null): StoredEvent => ({
  subject,
  json: JSON.stringify({ n }),
  id: `${subject}-${n}`,
  traceparent,
});

beforeAll(async () => {
  nats = await startNats();
  client = await connect(nats.options());
  natsOfService = new Nats(client, [{ name: 'EVENTS', subjects: ['events.>'], maxAgeDays: 1 }]);
  publisher = new EventPublisher(natsOfService);
  const jsm = await natsOfService.jetstreamManager();
  await jsm.streams.add({ name: 'FULL', subjects: ['full.>'], max_msgs: 2, discard: DiscardPolicy.New });
});

afterAll(async () => {
  await client?.close();
  await nats?.stop();
});

async function stored(stream: string) {
  const jsm = await natsOfService.jetstreamManager();
  const info = await jsm.streams.info(stream);
  const messages = [];
  for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
    const m = await jsm.streams.getMessage(stream, { seq });
    if (m) messages.push({ subject: m.subject, body: m.json<unknown>(), id: m.header.get('Nats-Msg-Id'), trace: m.header.get('traceparent') });
  }
  return messages;
}

describe('EventPublisher.publishStored', () => {
  it('stores each event once under its id with its traceparent, and a re-publication adds nothing', async () => {
    const events = Array.from({ length: 100 }, (_, n) => event('events.a', n, n % 2 === 0 ? TRACE : null));
    expect(await publisher.publishStored(events)).toEqual(events.map(() => undefined));
    // An outbox relay that crashed before deleting its rows sends them again: JetStream keeps one of each.
    expect(await publisher.publishStored(events.slice(0, 10))).toEqual(Array(10).fill(undefined));
    const messages = await stored('EVENTS');
    expect(messages).toHaveLength(100);
    expect(messages).toEqual(
      events.map((e, n) => ({ subject: 'events.a', body: { n }, id: e.id, trace: n % 2 === 0 ? TRACE : '' })),
    );
  });

  it('answers each failure at its own index: a subject no stream takes, a stream that refuses', async () => {
    const outcomes = await publisher.publishStored([
      event('full.x', 1),
      event('nowhere.x', 1),
      event('full.x', 2),
      event('full.x', 3),
      event('events.b', 1),
    ]);
    expect(outcomes[0]).toBeUndefined();
    expect(outcomes[1]).toBeInstanceOf(NoRespondersError);
    expect(outcomes[2]).toBeUndefined();
    // max_msgs 2 with discard new: the third is refused, and the relay must keep it.
    expect(outcomes[3]).toBeInstanceOf(JetStreamApiError);
    expect((outcomes[3] as Error).message).toMatch(/maximum messages exceeded/i);
    expect(outcomes[4]).toBeUndefined();
    expect((await stored('FULL')).map((m) => m.id)).toEqual(['full.x-1', 'full.x-2']);
  });

  it('times out what nobody acknowledges without touching a concurrent call', async () => {
    // A plain subscriber takes the subject, so the broker reports no "no responders": nothing ever answers.
    const silent = client.subscribe('silent.>');
    await client.flush();
    const [lost, kept] = await Promise.all([
      publisher.publishStored([event('silent.x', 1), event('silent.x', 2)], 300),
      new Promise<void>((resolve) => setTimeout(resolve, 50)).then(() =>
        publisher.publishStored([event('events.c', 1), event('events.c', 2)], 10_000),
      ),
    ]);
    expect(lost.map((e) => e instanceof TimeoutError)).toEqual([true, true]);
    expect(kept).toEqual([undefined, undefined]);
    silent.unsubscribe();
  });

  it('answers the failure to create its streams for every event instead of throwing', async () => {
    // EVENTS already takes events.>: a second stream over the same subjects is refused.
    const clashing = new EventPublisher(new Nats(client, [{ name: 'CLASH', subjects: ['events.>'], maxAgeDays: 1 }]));
    const outcomes = await clashing.publishStored([event('events.e', 1), event('events.e', 2)]);
    expect(outcomes).toHaveLength(2);
    expect(outcomes.map((e) => (e as Error).message)).toEqual([expect.stringMatching(/overlap/i), expect.stringMatching(/overlap/i)]);
  });

  it('answers RequestError for every event once the connection has closed', async () => {
    const other = await connect(nats.options());
    const closing = new EventPublisher(new Nats(other));
    expect(await closing.publishStored([event('events.d', 1)])).toEqual([undefined]);
    await other.close();
    const outcomes = await closing.publishStored([event('events.d', 2), event('events.d', 3)]);
    expect(outcomes.map((e) => e instanceof RequestError)).toEqual([true, true]);
  });
});
