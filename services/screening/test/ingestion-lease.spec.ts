// The list-refresh lease against real Postgres, with leases of seconds instead of minutes: a
// refresh that outlasts its lease keeps it by renewing it, one whose lease lapsed and was taken
// leaves off (found by a renewal or by the commit's fencing), and a holder whose lease was taken cannot commit over the one that took it.
import { jest } from '@jest/globals';
import { createDatabase, parseConfig, type Database } from '@vigil/platform';
import { createHash, randomUUID } from 'node:crypto';
import { envSchema } from '../src/env.js';
import type { OutboxRelay } from '../src/events/outbox.relay.js';
import { OutboxRepository } from '../src/events/outbox.repository.js';
import type { IndexService } from '../src/index/index.service.js';
import { computeDelta, toRecord } from '../src/ingestion/delta.js';
import { LeaseLost } from '../src/ingestion/ingestion.errors.js';
import { IngestionRepository, type NewVersion } from '../src/ingestion/ingestion.repository.js';
import { IngestionService } from '../src/ingestion/ingestion.service.js';
import { ListFetcher } from '../src/ingestion/list-fetcher.js';
import type { SourceDefinition } from '../src/sources/source.js';
import { resolveDefinitions } from '../src/sources/sources.discovery.js';
import { SourcesRepository } from '../src/sources/sources.repository.js';
import { entity } from '../src/testing/entities.js';
import { writeV1 } from './fixture-lists.js';
import { DATABASE_URL, Harness, eventually } from './harness.js';

jest.setTimeout(60_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function signal() {
  let fire!: () => void;
  const fired = new Promise<void>((resolve) => (fire = resolve));
  return { fire, fired };
}

async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A fetch that waits until the test lets it go: a refresh as long as the test needs. */
class HeldFetcher extends ListFetcher {
  readonly started = signal();
  private readonly gate = signal();

  override async fetch(definition: SourceDefinition) {
    this.started.fire();
    await this.gate.fired;
    return super.fetch(definition);
  }

  letGo(): void {
    this.gate.fire();
  }
}

describe('list-refresh lease', () => {
  const h = new Harness();
  let db: Database;
  let dir: string;
  let sources: SourcesRepository;
  let ingestion: IngestionRepository;
  let outbox: OutboxRepository;
  let definitions: Map<string, SourceDefinition>;

  const configWith = (lease: { seconds: number; renewSeconds: number }) =>
    parseConfig(envSchema, {
      LISTS_DIR: dir,
      LISTS_LEASE_SECONDS: String(lease.seconds),
      LISTS_LEASE_RENEW_SECONDS: String(lease.renewSeconds),
    });
  const serviceWith = (lease: { seconds: number; renewSeconds: number }, fetcher: ListFetcher) =>
    new IngestionService(
      configWith(lease),
      fetcher,
      sources,
      ingestion,
      outbox,
      { nudge: () => undefined } as unknown as OutboxRelay,
      { sync: () => Promise.resolve() } as unknown as IndexService,
    );
  const leaseOf = async (source: string) =>
    (await h.query<{ lease_owner: string | null }>(`SELECT lease_owner FROM $schema.sources WHERE source = $1`, [source]))[0]!
      .lease_owner;
  const versionsOf = (source: string) => h.query(`SELECT id FROM $schema.list_versions WHERE source = $1 ORDER BY id`, [source]);

  beforeAll(async () => {
    await h.start();
    db = createDatabase({ databaseUrl: DATABASE_URL, schema: h.schema, role: null, max: 4 });
    sources = new SourcesRepository(db);
    ingestion = new IngestionRepository(db);
    outbox = new OutboxRepository(db);
    dir = await h.tempDir();
    await writeV1(dir);
    const found = (await resolveDefinitions(configWith({ seconds: 120, renewSeconds: 30 }))).definitions;
    definitions = new Map(found.map((d) => [d.source, d]));
    await sources.sync(found);
  });

  afterAll(async () => {
    await db?.close();
    await h.stop();
  });

  it('keeps the lease of a refresh that runs longer than the lease, by renewing it', async () => {
    const fetcher = new HeldFetcher(await h.tempDir('vigil-cache-'), 10_000);
    const service = serviceWith({ seconds: 3, renewSeconds: 1 }, fetcher);
    const refresh = service.refresh(definitions.get('ofac-sdn')!, 'admin');
    await fetcher.started.fired;

    // More than two leases long: without renewal another replica takes the source after 3 s.
    const started = Date.now();
    let tries = 0;
    const takenAtMs: number[] = [];
    try {
      while (Date.now() - started < 7_000) {
        tries++;
        if (await ingestion.acquireLease('ofac-sdn', 'another-replica', 60)) takenAtMs.push(Date.now() - started);
        await sleep(250);
      }
    } finally {
      fetcher.letGo();
    }
    expect(tries).toBeGreaterThan(20);
    expect(takenAtMs).toEqual([]);

    expect(await refresh).toMatchObject({ source: 'ofac-sdn', outcome: 'updated', error: null });
    expect(await versionsOf('ofac-sdn')).toHaveLength(1);
    expect(await leaseOf('ofac-sdn')).toBeNull();
  });

  it('leaves a refresh off when its lease lapsed and another replica took it', async () => {
    const fetcher = new HeldFetcher(await h.tempDir('vigil-cache-'), 10_000);
    const service = serviceWith({ seconds: 2, renewSeconds: 1 }, fetcher);
    // The holder stalls (its renewals cannot reach Postgres) long enough for its lease to lapse.
    let stalled = true;
    const lost = signal();
    const renew = ingestion.renewLease.bind(ingestion);
    const spy = jest.spyOn(ingestion, 'renewLease').mockImplementation(async (...args) => {
      if (stalled) throw new Error('connection timeout');
      const held = await renew(...args);
      if (!held) lost.fire();
      return held;
    });
    try {
      const refresh = service.refresh(definitions.get('un-sc')!, 'admin');
      await fetcher.started.fired;
      await eventually(
        () => ingestion.acquireLease('un-sc', 'another-replica', 60),
        (lease) => lease !== null,
      );
      stalled = false;
      await within(5_000, 'the holder did not find its lease taken', lost.fired);
      fetcher.letGo();

      expect(await refresh).toMatchObject({
        source: 'un-sc',
        outcome: 'busy',
        versionId: null,
        error: 'the refresh lease lapsed and another replica took it',
      });
      // Not a failure of the list, and the lease stays with the replica that took it.
      expect(await versionsOf('un-sc')).toEqual([]);
      expect(await h.query(`SELECT id FROM $schema.ingestion_failures WHERE source = 'un-sc'`)).toEqual([]);
      expect(await leaseOf('un-sc')).toBe('another-replica');
    } finally {
      fetcher.letGo();
      spy.mockRestore();
    }
  });

  it('leaves a refresh off, recording no failure, when its lease is taken during the commit itself', async () => {
    // Renewals too rare to notice: only the commit's fencing can find the lease gone.
    const service = serviceWith({ seconds: 60, renewSeconds: 30 }, new ListFetcher(await h.tempDir('vigil-cache-'), 10_000));
    const commitVersion = ingestion.commitVersion.bind(ingestion);
    const spy = jest.spyOn(ingestion, 'commitVersion').mockImplementation(async (...args) => {
      // Between the refresh's last check and its commit, its lease lapses and another replica takes it.
      await h.query(`UPDATE $schema.sources SET lease_until = now() - interval '1 second' WHERE source = 'os-peps'`);
      expect(await ingestion.acquireLease('os-peps', 'another-replica', 60)).not.toBeNull();
      return commitVersion(...args);
    });
    try {
      expect(await service.refresh(definitions.get('os-peps')!, 'admin')).toMatchObject({
        source: 'os-peps',
        outcome: 'busy',
        versionId: null,
        error: 'the refresh lease lapsed and another replica took it',
      });
      expect(spy).toHaveBeenCalledTimes(1);
      expect(await versionsOf('os-peps')).toEqual([]);
      expect(await h.query(`SELECT id FROM $schema.ingestion_failures WHERE source = 'os-peps'`)).toEqual([]);
      expect(await leaseOf('os-peps')).toBe('another-replica');
    } finally {
      spy.mockRestore();
      await ingestion.releaseLease('os-peps', 'another-replica', false);
    }
  });

  it('refuses the commit of a holder whose lease lapsed and was taken, and stores nothing', async () => {
    const source = 'os-peps';
    const { listId, format } = definitions.get(source)!;
    const version = (content: string, previousVersionId: number | null): NewVersion => ({
      source,
      previousVersionId,
      fetchedAt: new Date(),
      sha256: createHash('sha256').update(content).digest('hex'),
      fileSize: 1,
      files: [],
      format,
      parserVersion: 'test',
      duplicates: 0,
      trigger: 'admin',
    });
    const event = (id: number) => ({ id: randomUUID(), subject: 'lists.v1.updated', payload: { versionId: id } });
    const addToOutbox = outbox.add.bind(outbox);
    const commit = async (owner: string, content: string, previousVersionId: number | null, names: Record<string, string>) => {
      const records = Object.entries(names).map(([id, name]) => toRecord(entity(listId, id, 'individual', [name])));
      const delta = computeDelta(await ingestion.liveHashes(source), records);
      return ingestion.commitVersion(owner, version(content, previousVersionId), records, delta, event, addToOutbox);
    };

    expect(await ingestion.acquireLease(source, 'first', 60)).not.toBeNull();
    const first = await commit('first', 'first file', null, { 'pep-1': 'Marisol Ventura Quiroga', 'pep-2': 'Tomasz Wieczorek' });
    const live = () =>
      h.query(`SELECT source_id, content_hash, added_version_id, changed_version_id, removed_version_id FROM $schema.entities WHERE source = $1 ORDER BY source_id`, [source]);
    const outboxRows = () => h.query(`SELECT id FROM $schema.outbox ORDER BY id`);
    const liveBefore = await live();
    const outboxBefore = await outboxRows();

    // A takes a one-second lease and stalls past it; B takes the source.
    expect(await ingestion.acquireLease(source, 'replica-a', 1)).not.toBeNull();
    expect(await ingestion.acquireLease(source, 'replica-b', 60)).toBeNull();
    await eventually(
      () => ingestion.acquireLease(source, 'replica-b', 60),
      (lease) => lease !== null,
    );

    const refused = commit('replica-a', 'a file', first, { 'pep-1': 'Marisol Ventura', 'pep-3': 'Someone Else' });
    await expect(refused).rejects.toBeInstanceOf(LeaseLost);
    expect(await versionsOf(source)).toEqual([{ id: String(first) }]);
    expect(await live()).toEqual(liveBefore);
    expect(await outboxRows()).toEqual(outboxBefore);
    expect(await h.query(`SELECT current_version_id, lease_owner FROM $schema.sources WHERE source = $1`, [source])).toEqual([
      { current_version_id: String(first), lease_owner: 'replica-b' },
    ]);

    const second = await commit('replica-b', 'b file', first, { 'pep-1': 'Marisol Ventura', 'pep-3': 'Someone Else' });
    expect(second).toBeGreaterThan(first);
    expect(await h.query(`SELECT current_version_id, lease_owner FROM $schema.sources WHERE source = $1`, [source])).toEqual([
      { current_version_id: String(second), lease_owner: null },
    ]);
    expect(await ingestion.versionDelta(second)).toEqual({ added: ['pep-3'], changed: ['pep-1'], removed: ['pep-2'] });
  });
});
