import { jest } from '@jest/globals';
import {
  contracts,
  type HealthReply,
  type ListsResponse,
  type RefreshResponse,
  type ScreenResponse,
} from '@vigil/proto';
import pg from 'pg';
import { SDN_V1, writeSdn, writeV1 } from './fixture-lists.js';
import { LARGE_CALLER, answers as answersOf, screeningReady } from './screen-answers.js';
import { DATABASE_URL, Harness, eventually, type ServiceProcess } from './harness.js';

jest.setTimeout(90_000);

describe('replicas built from Postgres', () => {
  const h = new Harness();
  let dir: string;
  let ingesting: ServiceProcess;

  const answers = () => answersOf(h);

  beforeAll(async () => {
    await h.start();
    dir = await h.tempDir();
    await writeV1(dir);
    // No periodic reconcile: following list versions must come from lists.v1.updated.
    ingesting = h.startService({ LISTS_DIR: dir, INDEX_RECONCILE_SECONDS: '3600' });
    await h.waitForResponders();
    await eventually(
      () => h.value<ListsResponse>('screening.v1.lists', {}),
      (r) => r.lists.length === 3 && r.lists.every((l) => l.status === 'active'),
    );
    await screeningReady(h);
  });
  afterAll(() => h.stop());

  it('answers INDEX_UNAVAILABLE, never an empty result, until its index is loaded', async () => {
    const expected = await answers();
    await h.stopService(ingesting);

    // Hold the entities table so the new replica's load waits, as behind a slow database.
    const locker = new pg.Client({ connectionString: DATABASE_URL });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE "${h.schema}".entities IN ACCESS EXCLUSIVE MODE`);
    const replica = h.startService({ LISTS_DIR: dir, LISTS_SCHEDULER: 'false', INDEX_RECONCILE_SECONDS: '3600' });
    try {
      await h.waitForResponders();
      const refused = await h.request(contracts.screening.screen, { ...LARGE_CALLER, entity: { name: 'Viktor Bout' } });
      expect(refused.ok).toBe(false);
      if (!refused.ok) {
        expect(refused.error.code).toBe('INDEX_UNAVAILABLE');
        expect(refused.error.retryAfterSeconds).toBeGreaterThan(0);
      }
      const bulk = await h.request('screening.v1.bulk-screen', { ...LARGE_CALLER, names: ['Viktor Bout'] });
      expect(bulk.ok ? 'answered' : bulk.error.code).toBe('INDEX_UNAVAILABLE');
      const health = await h.value<HealthReply>('health.v1.screening', {});
      expect(health.checks['index']).toMatchObject({ status: 'down', detail: 'loading' });
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    await screeningReady(h);
    // The replica built only from Postgres answers exactly what the ingesting one did.
    expect(await answers()).toEqual(expected);
    await h.stopService(replica);
  });

  it('keeps replicas current by following lists.v1.updated', async () => {
    const first = h.startService({ LISTS_DIR: dir, LISTS_SCHEDULER: 'false', INDEX_RECONCILE_SECONDS: '3600' });
    const second = h.startService({ LISTS_DIR: dir, LISTS_SCHEDULER: 'false', INDEX_RECONCILE_SECONDS: '3600' });
    for (const replica of [first, second]) {
      await replica.waitForLog(/following lists\.v1\.updated/);
      await replica.waitForLog(/index ready/);
    }

    await writeSdn(
      dir,
      [...SDN_V1, { id: 107, name: 'PRIGOZHIN, Yevgeniy Viktorovich', type: 'individual', programs: 'RUSSIA-EO14024' }],
      [[101, 'BUT, Viktor']],
    );
    // Whichever replica takes the admin request ingests; the other can only learn of the new
    // version from the event (no periodic reconcile here). Each logs the version it serves.
    const [outcome] = (await h.value<RefreshResponse>('screening.v1.refresh', { sources: ['ofac-sdn'] }, 30_000))
      .results;
    expect(outcome).toMatchObject({ outcome: 'updated', delta: { added: 1, changed: 0, removed: 0 } });
    const line = new RegExp(`ofac-sdn: serving version ${outcome!.versionId} `);
    await first.waitForLog(line, 15_000);
    await second.waitForLog(line, 15_000);

    await h.stopService(first);
    const res = await h.value<ScreenResponse>('screening.v1.screen', {
      ...LARGE_CALLER,
      entity: { name: 'Yevgeniy Prigozhin' },
    });
    expect(res.results[0]?.id).toBe('ofac-sdn:107');
    expect(res.listVersions.find((v) => v.source === 'ofac-sdn')?.versionId).toBe(outcome!.versionId);
    await h.stopService(second);
  });

  it('answers INDEX_UNAVAILABLE and reports the index down when Elasticsearch cannot be reached', async () => {
    // Port 9 (discard) refuses connections: the engine is down from the start.
    const replica = h.startService({
      LISTS_DIR: dir,
      LISTS_SCHEDULER: 'false',
      INDEX_ENGINE: 'elasticsearch',
      ELASTICSEARCH_URL: 'http://127.0.0.1:9',
    });
    await h.waitForResponders();
    await replica.waitForLog(/loading the index failed, retrying/);
    const refused = await h.request('screening.v1.screen', { ...LARGE_CALLER, entity: { name: 'Viktor Bout' } });
    expect(refused.ok ? 'answered' : refused.error.code).toBe('INDEX_UNAVAILABLE');
    const health = await h.value<HealthReply>('health.v1.screening', {});
    expect(health.status).toBe('down');
    expect(health.checks['index']?.status).toBe('down');
    await h.stopService(replica);
  });
});
