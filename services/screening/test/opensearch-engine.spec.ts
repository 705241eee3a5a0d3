import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import {
  contracts,
  type AdminListsResponse,
  type HealthReply,
  type ListsResponse,
  type ScreenResponse,
} from '@vigil/proto';
import { SDN_V1, writeSdn, writeV1 } from './fixture-lists.js';
import { LARGE_CALLER, answers as answersOf, screeningReady } from './screen-answers.js';
import { Harness, eventually } from './harness.js';

// The screening service on the distributed index: replicas built from Postgres into a live
// OpenSearch node must answer exactly what the in-process engine answers. `npm test` starts
// the node (infra/scripts/opensearch.mjs) and passes OPENSEARCH_URL.
jest.setTimeout(180_000);

const url = process.env.OPENSEARCH_URL;
if (!url) process.stdout.write('OpenSearch screening tests skipped: OPENSEARCH_URL is not set (npm test sets it).\n');

(url ? describe : describe.skip)('screening with INDEX_ENGINE=opensearch', () => {
  const h = new Harness();
  // Its own index prefix: the node may be shared with other runs.
  const prefix = `vigil-it-${randomBytes(4).toString('hex')}`;
  const opensearch = { INDEX_ENGINE: 'opensearch', OPENSEARCH_URL: url!, OPENSEARCH_INDEX_PREFIX: prefix };
  let dir: string;
  let inProcess: Awaited<ReturnType<typeof answers>>;

  const answers = () => answersOf(h);
  const ready = () => screeningReady(h);
  const indices = async () =>
    Object.keys((await (await fetch(`${url}/${prefix}-*?expand_wildcards=open`)).json()) as object).sort();

  beforeAll(async () => {
    await h.start();
    dir = await h.tempDir();
    await writeV1(dir);
    // The reference: the default engine ingests the lists into Postgres and answers.
    const ingesting = h.startService({ LISTS_DIR: dir, INDEX_RECONCILE_SECONDS: '3600' });
    await h.waitForResponders();
    await eventually(
      () => h.value<ListsResponse>('screening.v1.lists', {}),
      (r) => r.lists.length === 3 && r.lists.every((l) => l.status === 'active'),
    );
    await ready();
    inProcess = await answers();
    await h.stopService(ingesting);
  });
  afterAll(async () => {
    await fetch(`${url}/${prefix}-*?expand_wildcards=all`, { method: 'DELETE' }).catch(() => undefined);
    await fetch(`${url}/_index_template/${prefix}-entities`, { method: 'DELETE' }).catch(() => undefined);
    await h.stop();
  });

  it('answers what the in-process engine answers, from one OpenSearch index per list version', async () => {
    const replica = h.startService({ LISTS_DIR: dir, LISTS_SCHEDULER: 'false', ...opensearch });
    await h.waitForResponders();
    await ready();
    expect(await answers()).toEqual(inProcess);
    expect(await indices()).toHaveLength(3);
    const health = await h.value<HealthReply>('health.v1.screening', {});
    // The engine and the version each list is served at.
    expect(health.checks['index']).toMatchObject({
      status: 'up',
      detail: expect.stringMatching(/^opensearch: .*ofac-sdn@v\d+/),
    });
    // The admin console's lists: the engine, and each list's indexed version beside its stored one.
    const admin = await h.value<AdminListsResponse>(contracts.screening.adminLists.subject, {});
    expect(admin.index).toEqual({ engine: 'opensearch' });
    expect(admin.lists.length).toBe(3);
    for (const list of admin.lists) expect(list.indexedVersion).toBe(list.version);
    await h.stopService(replica);
  });

  it('answers INDEX_UNAVAILABLE with a retry time, never an empty result, when OpenSearch cannot be reached', async () => {
    // Port 9 (discard) refuses connections: the engine is down from the start.
    const replica = h.startService({
      LISTS_DIR: dir,
      LISTS_SCHEDULER: 'false',
      ...opensearch,
      OPENSEARCH_URL: 'http://127.0.0.1:9',
    });
    await h.waitForResponders();
    await replica.waitForLog(/loading the index failed, retrying/);
    const refused = await h.request('screening.v1.screen', { ...LARGE_CALLER, entity: { name: 'Viktor Bout' } });
    expect(refused.ok ? 'answered' : refused.error.code).toBe('INDEX_UNAVAILABLE');
    if (!refused.ok) expect(refused.error.retryAfterSeconds).toBeGreaterThan(0);
    const health = await h.value<HealthReply>('health.v1.screening', {});
    expect(health.checks['index']?.status).toBe('down');
    await h.stopService(replica);
  });

  it('lets two replicas share the index, and follows a new list version', async () => {
    const first = h.startService({
      LISTS_DIR: dir,
      LISTS_SCHEDULER: 'false',
      INDEX_RECONCILE_SECONDS: '3600',
      ...opensearch,
    });
    const second = h.startService({
      LISTS_DIR: dir,
      LISTS_SCHEDULER: 'false',
      INDEX_RECONCILE_SECONDS: '3600',
      ...opensearch,
    });
    for (const replica of [first, second]) await replica.waitForLog(/index ready/);
    // Both found the indices the first test built: no second copy.
    expect(await indices()).toHaveLength(3);

    await writeSdn(
      dir,
      [...SDN_V1, { id: 107, name: 'PRIGOZHIN, Yevgeniy Viktorovich', type: 'individual', programs: 'RUSSIA-EO14024' }],
      [[101, 'BUT, Viktor']],
    );
    const refreshed = await h.value<{ results: { outcome: string; versionId: number }[] }>(
      'screening.v1.refresh',
      { sources: ['ofac-sdn'] },
      60_000,
    );
    const versionId = refreshed.results[0]!.versionId;
    expect(refreshed.results[0]!.outcome).toBe('updated');
    const line = new RegExp(`ofac-sdn: serving version ${versionId} `);
    await first.waitForLog(line, 30_000);
    await second.waitForLog(line, 30_000);
    // Each replica answers from the new version alone; the two agree.
    for (const stopping of [first, second]) {
      const res = await h.value<ScreenResponse>('screening.v1.screen', {
        ...LARGE_CALLER,
        entity: { name: 'Yevgeniy Prigozhin' },
      });
      expect(res.results[0]?.id).toBe('ofac-sdn:107');
      expect(res.listVersions.find((v) => v.source === 'ofac-sdn')?.versionId).toBe(versionId);
      if (stopping === first) await h.stopService(first);
    }
    await h.stopService(second);
  });
});
