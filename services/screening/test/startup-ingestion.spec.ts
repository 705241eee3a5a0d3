import { jest } from '@jest/globals';
import type { ListsResponse, ScreenResponse } from '@vigil/proto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SDN_V1, unXml, writeSdn, writeV1 } from './fixture-lists.js';
import { Harness, eventually, type ServiceProcess } from './harness.js';

jest.setTimeout(90_000);

const large = { clientId: 'client-1', tier: 'large', feeds: ['ofac', 'peps', 'sanctions'] };

/**
 * A restart must not keep serving yesterday's lists until the refresh cadence comes round:
 * the pass at boot ingests a file whose checksum changed and a source that now lives
 * somewhere else (a new LISTS_DIR). The cadence here is a day, so only that pass can do it.
 */
describe('list ingestion at start', () => {
  const h = new Harness();
  let service: ServiceProcess;

  const lists = async () => (await h.value<ListsResponse>('screening.v1.lists', {})).lists;
  const sdn = async () => (await lists()).find((l) => l.source === 'ofac-sdn');
  const start = async (listsDir: string) => {
    service = h.startService({ LISTS_DIR: listsDir, LISTS_REFRESH_MINUTES: '1440', INDEX_RECONCILE_SECONDS: '3600' });
    await h.waitForResponders();
  };
  const restart = async (listsDir: string) => {
    await h.stopService(service);
    await start(listsDir);
  };
  const versions = () =>
    h.query<{ id: string; entity_count: number; trigger: string }>(
      `SELECT id, entity_count, trigger FROM $schema.list_versions WHERE source = 'ofac-sdn' ORDER BY id`,
    );

  beforeAll(async () => {
    await h.start();
  });
  afterAll(() => h.stop());

  it('ingests a changed file at the next start, and leaves an unchanged one alone', async () => {
    const dir = await h.tempDir();
    await writeV1(dir);
    await start(dir);
    await eventually(lists, (l) => l.length === 3 && l.every((s) => s.status === 'active' && s.version !== null));
    expect(await versions()).toEqual([expect.objectContaining({ entity_count: 5, trigger: 'startup' })]);

    // A restart with the same bytes: checked, no new version.
    await restart(dir);
    await service.waitForLog(/ofac-sdn: unchanged/);
    expect(await versions()).toHaveLength(1);

    // The file changes while the service is down: the start ingests it, a day before its cadence would.
    await h.stopService(service);
    await writeSdn(
      dir,
      [...SDN_V1, { id: 106, name: 'ZALA AERO GROUP', programs: 'RUSSIA-EO14024' }],
      [[101, 'BUT, Viktor']],
    );
    await start(dir);
    await eventually(sdn, (s) => s?.entityCount === 6);
    expect((await versions()).map((v) => [v.entity_count, v.trigger])).toEqual([
      [5, 'startup'],
      [6, 'startup'],
    ]);
    // The index loads after the lists are stored: until then the service answers INDEX_UNAVAILABLE.
    const { value: screened } = await eventually(
      () => h.request('screening.v1.screen', { ...large, entity: { name: 'Zala Aero Group' } }),
      (r) => r.ok && (r.value as ScreenResponse).results.length > 0,
    );
    expect(screened.ok && (screened.value as ScreenResponse).results[0]!.sourceId).toBe('106');
  });

  it('ingests the lists of a new LISTS_DIR at start, under the file names used there', async () => {
    const moved = await h.tempDir();
    await writeV1(moved);
    await writeSdn(
      moved,
      [
        ...SDN_V1,
        { id: 106, name: 'ZALA AERO GROUP', programs: 'RUSSIA-EO14024' },
        { id: 107, name: 'KALASHNIKOV CONCERN', programs: 'RUSSIA-EO14024' },
      ],
      [[101, 'BUT, Viktor']],
    );
    // The real UN file is UN_consolidated.xml, the sample's consolidated.xml: a moved source is not
    // "missing its file", it has other files.
    await rm(join(moved, 'un_sc', 'consolidated.xml'));
    await writeFile(
      join(moved, 'un_sc', 'UN_consolidated.xml'),
      unXml(
        [{ ref: 'QDi.001', first: 'HANI', second: 'AL-SIBAI', year: '1963' }],
        [{ ref: 'QDe.003', name: 'AL RASHID TRUST' }],
      ),
    );
    await restart(moved);
    const { value: state } = await eventually(sdn, (s) => s?.entityCount === 7);
    expect(state!.location).toContain(moved);
    expect((await versions()).at(-1)).toMatchObject({ entity_count: 7, trigger: 'startup' });
    const { value: un } = await eventually(
      async () => (await lists()).find((l) => l.source === 'un-sc'),
      (l) => l?.entityCount === 2,
    );
    expect(un!.location).toContain('UN_consolidated.xml');
    await service.waitForLog(/un-sc: moved from/);
  });

  // A rolling deploy stops the service wherever its pass is. A lease left to the stopped
  // process kept its source "updating" and skipped by the next start (for the lease's 30 minutes).
  it('gives its refresh leases back when stopped in the middle of a pass, and the next start ingests', async () => {
    const big = await h.tempDir();
    await writeV1(big);
    const rows = Array.from({ length: 60_000 }, (_, i) => ({ id: 200_000 + i, name: `TESTCO TRADING ${i} LLC`, programs: 'SDGT' }));
    await writeSdn(big, [...SDN_V1, ...rows], [[101, 'BUT, Viktor']]);
    await restart(big);
    const held = () => h.query<{ source: string }>(`SELECT source FROM $schema.sources WHERE lease_owner IS NOT NULL`);
    await eventually(held, (r) => r.some((s) => s.source === 'ofac-sdn'), 15_000, 5);
    await h.stopService(service);
    expect(await held()).toEqual([]);
    expect(service.output).toMatch(/ofac-sdn: refresh left off, the service is stopping/);

    await start(big);
    await eventually(sdn, (s) => s?.status === 'active' && s.entityCount === SDN_V1.length + rows.length, 60_000);
  });
});
