// The outbox relay's drain against real Postgres and a real nats-server, through the platform's
// publishStored: a screened event leaves the outbox only once JetStream has stored it under its
// log id, and one the stream refused stays (alone in its batch row) for the next pass.
import { jetstreamManager } from '@nats-io/jetstream';
import { EventPublisher, Nats, createDatabase, type Database } from '@vigil/platform';
import { streams, subjects } from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import { OutboxRepository, type StoredOutboxMessage } from '../src/events/outbox.repository.js';
import { DATABASE_URL, Harness } from './harness.js';

describe('outbox drain', () => {
  const h = new Harness();
  let db: Database;
  let outbox: OutboxRepository;
  let publisher: EventPublisher;

  beforeAll(async () => {
    await h.start();
    db = createDatabase({ databaseUrl: DATABASE_URL, schema: h.schema, role: null, max: 2 });
    outbox = new OutboxRepository(db);
    publisher = new EventPublisher(new Nats(h.nc, [{ ...streams.screenings, maxAgeDays: 1 }]));
  }, 60_000);

  afterAll(async () => {
    await db?.close();
    await h.stop();
  });

  const storedIds = async () => {
    const jsm = await jetstreamManager(h.nc);
    const info = await jsm.streams.info(streams.screenings.name);
    const ids: string[] = [];
    for (let seq = info.state.first_seq; info.state.messages > 0 && seq <= info.state.last_seq; seq++)
      ids.push((await jsm.streams.getMessage(streams.screenings.name, { seq }))!.header.get('Nats-Msg-Id'));
    return ids;
  };

  it('keeps what the stream did not store and publishes each event once under its log id', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const batch = ids.map((id, n) => ({ id, traceparent: null, payload: { screeningId: id, n } }));
    await h.query(`INSERT INTO $schema.outbox_batches (subject, messages) VALUES ($1, $2::json)`, [
      subjects.screening.screened,
      JSON.stringify(batch),
    ]);

    // The stream refuses the second event (as a full stream or a lost acknowledgement would): the
    // first and third are published, the batch row keeps only the second, and the pass fails.
    const refusing = async (window: readonly StoredOutboxMessage[]) => {
      const outcomes = await publisher.publishStored(window.filter((m) => m.id !== ids[1]));
      return window.map((m) => (m.id === ids[1] ? new Error('refused') : outcomes.shift()));
    };
    await expect(outbox.drain(200, 50, refusing)).rejects.toThrow('refused');
    expect(await storedIds()).toEqual([ids[0], ids[2]]);
    const kept = await h.query<{ messages: Array<{ id: string }>; attempts: number; last_error: string }>(
      `SELECT messages, attempts, last_error FROM $schema.outbox_batches`,
    );
    expect(kept).toEqual([{ messages: [batch[1]], attempts: 1, last_error: 'refused' }]);

    // The next pass publishes what was kept and the row goes.
    const taken = await outbox.drain(200, 50, (window) => publisher.publishStored(window));
    expect(taken).toEqual({ rows: 0, batches: 1 });
    expect(await storedIds()).toEqual([ids[0], ids[2], ids[1]]);
    expect(await h.query(`SELECT id FROM $schema.outbox_batches`)).toEqual([]);
  });
});
