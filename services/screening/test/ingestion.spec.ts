import { jest } from '@jest/globals';
import type { ListsRefreshFailedEvent, ListsResponse, ListsUpdatedEvent, RefreshResponse, ScreenResponse } from '@vigil/proto';
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SDN_V1, writeSdn, writeV1 } from './fixture-lists.js';
import { Harness, eventually, type ServiceProcess } from './harness.js';

jest.setTimeout(60_000);

const sha256 = async (path: string) => createHash('sha256').update(await readFile(path)).digest('hex');
const large = { clientId: 'client-1', tier: 'large', feeds: ['ofac', 'peps', 'regulatory', 'sanctions', 'wanted', 'crime', 'us_sanctions', 'eu_sanctions', 'gb_coh_disqualified'] };

describe('list ingestion: versions, deltas, no-ops and failures', () => {
  const h = new Harness();
  let dir: string;
  let service: ServiceProcess;

  const lists = async () => (await h.value<ListsResponse>('screening.v1.lists', {})).lists;
  const refresh = async (sources: string[]) => (await h.value<RefreshResponse>('screening.v1.refresh', { sources }, 30_000)).results;
  const screen = (name: string) => h.value<ScreenResponse>('screening.v1.screen', { ...large, entity: { name } });

  beforeAll(async () => {
    await h.start();
    dir = await h.tempDir();
    await writeV1(dir);
    service = h.startService({ LISTS_DIR: dir, INDEX_RECONCILE_SECONDS: '3600' });
    await h.waitForResponders();
    await eventually(lists, (l) => l.length === 3 && l.every((s) => s.status === 'active' && s.version !== null));
  });
  afterAll(() => h.stop());

  it('records a first version per source with its checksum, size, count and parser', async () => {
    const bySource = new Map((await lists()).map((l) => [l.source, l]));
    expect([...bySource.keys()].sort()).toEqual(['ofac-sdn', 'os-peps', 'un-sc']);
    const un = bySource.get('un-sc')!;
    expect(un).toMatchObject({ feed: 'sanctions', sourceDataset: 'un_sanctions', entityCount: 3, status: 'active', lastError: null });
    expect(un.checksum).toBe(await sha256(join(dir, 'un_sc', 'consolidated.xml')));
    expect(un.fileSize).toBe((await readFile(join(dir, 'un_sc', 'consolidated.xml'))).length);
    expect(bySource.get('ofac-sdn')).toMatchObject({ feed: 'ofac', entityCount: 5 });
    const [version] = await h.query<{ parser_version: string; added: number; previous_version_id: string | null; format: string }>(
      `SELECT parser_version, added, previous_version_id, format FROM $schema.list_versions WHERE source = 'ofac-sdn'`,
    );
    expect(version).toMatchObject({ added: 5, previous_version_id: null, format: 'ofac-csv' });
    expect(version!.parser_version).toMatch(/^@vigil\/lists@\d+\.\d+\.\d+/);
  });

  it('computes the delta of a new version and publishes it on JetStream', async () => {
    const [before] = await lists().then((l) => l.filter((s) => s.source === 'ofac-sdn'));
    // 103 removed, 104 changed (new program), 106 added; 101, 102, 105 untouched
    await writeSdn(
      dir,
      [...SDN_V1.filter((r) => r.id !== 103).map((r) => (r.id === 104 ? { ...r, programs: 'CUBA] [SDGT' } : r)), { id: 106, name: 'ZALA AERO GROUP', programs: 'RUSSIA-EO14024' }],
      [[101, 'BUT, Viktor']],
    );
    const [outcome] = await refresh(['ofac-sdn']);
    expect(outcome).toMatchObject({ source: 'ofac-sdn', outcome: 'updated', delta: { added: 1, changed: 1, removed: 1 }, error: null });
    const versionId = outcome!.versionId!;
    expect(versionId).toBeGreaterThan(before!.version!);

    const rows = await h.query<{ source_id: string; added_version_id: string; changed_version_id: string | null; removed_version_id: string | null }>(
      `SELECT source_id, added_version_id, changed_version_id, removed_version_id FROM $schema.entities WHERE source = 'ofac-sdn' ORDER BY source_id`,
    );
    const row = (id: string) => rows.find((r) => r.source_id === id)!;
    expect(Number(row('103').removed_version_id)).toBe(versionId);
    expect(Number(row('104').changed_version_id)).toBe(versionId);
    expect(Number(row('106').added_version_id)).toBe(versionId);
    expect(row('101')).toMatchObject({ changed_version_id: null, removed_version_id: null });
    expect(await h.query(`SELECT source_id, change FROM $schema.entity_changes WHERE version_id = $1 ORDER BY source_id`, [versionId])).toEqual([
      { source_id: '103', change: 'removed' },
      { source_id: '104', change: 'changed' },
      { source_id: '106', change: 'added' },
    ]);

    const { value: events } = await eventually(
      () => h.streamMessages<ListsUpdatedEvent>('LISTS', 'lists.v1.updated'),
      (e) => e.some((m) => m.versionId === versionId),
    );
    const event = events.find((e) => e.versionId === versionId)!;
    expect(event).toMatchObject({
      source: 'ofac-sdn',
      feed: 'ofac',
      previousVersionId: before!.version,
      counts: { added: 1, changed: 1, removed: 1 },
      added: ['ofac-sdn:106'],
      changed: ['ofac-sdn:104'],
      removed: ['ofac-sdn:103'],
      complete: true,
      entityCount: 5,
    });
    // The first versions were published too, each once.
    expect(events.filter((e) => e.source === 'ofac-sdn')).toHaveLength(2);

    // The index serves the new version at once.
    const zala = await screen('Zala Aero Group');
    expect(zala.results[0]?.id).toBe('ofac-sdn:106');
    expect(zala.listVersions.find((v) => v.source === 'ofac-sdn')?.versionId).toBe(versionId);
    expect((await screen('Ramzan Kadyrov')).results.map((r) => r.id)).not.toContain('ofac-sdn:103');
  });

  it('treats an unchanged file as a no-op: no version, no event', async () => {
    const versionsBefore = await h.query('SELECT id FROM $schema.list_versions');
    const eventsBefore = await h.streamMessages('LISTS', 'lists.v1.updated');
    const outcomes = await refresh(['ofac-sdn', 'un-sc', 'os-peps']);
    expect(outcomes.map((o) => o.outcome)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect(await h.query('SELECT id FROM $schema.list_versions')).toEqual(versionsBefore);
    await new Promise((r) => setTimeout(r, 300));
    expect(await h.streamMessages('LISTS', 'lists.v1.updated')).toHaveLength(eventsBefore.length);
  });

  it('keeps the last good version serving when a file is corrupt, and records the failure', async () => {
    const unPath = join(dir, 'un_sc', 'consolidated.xml');
    const good = await readFile(unPath, 'utf8');
    const [before] = (await lists()).filter((l) => l.source === 'un-sc');

    // Truncated mid-record: recognised as UN XML, but the parser cannot finish it.
    await writeFile(unPath, good.slice(0, Math.floor(good.length * 0.6)));
    const [truncated] = await refresh(['un-sc']);
    expect(truncated).toMatchObject({ source: 'un-sc', outcome: 'failed', versionId: before!.version });
    expect(truncated!.error).toBeTruthy();

    const after = (await lists()).find((l) => l.source === 'un-sc')!;
    expect(after).toMatchObject({ status: 'active', version: before!.version, checksum: before!.checksum, entityCount: 3 });
    expect(after.lastError).toBe(truncated!.error);
    expect((await screen('Eric Badege')).results[0]?.id).toBe('un-sc:CDi.002');

    const failures = await h.query<{ stage: string; serving_version_id: string; trigger: string }>(
      `SELECT stage, serving_version_id, trigger FROM $schema.ingestion_failures WHERE source = 'un-sc'`,
    );
    expect(failures).toEqual([{ stage: expect.stringMatching(/^(parse|validate)$/), serving_version_id: String(before!.version), trigger: 'admin' }]);
    const { value: failed } = await eventually(
      () => h.streamMessages<ListsRefreshFailedEvent>('LISTS', 'lists.v1.refresh-failed'),
      (e) => e.length >= 1,
    );
    expect(failed[0]).toMatchObject({ source: 'un-sc', feed: 'sanctions', servingVersionId: before!.version });

    // Not a list at all any more: the source is no longer found in the folder; still serving.
    await writeFile(unPath, 'this is not a list\n');
    const [garbage] = await refresh(['un-sc']);
    expect(garbage).toMatchObject({ outcome: 'failed', versionId: before!.version });
    expect(garbage!.error).toMatch(/no un-xml file/);
    expect((await screen('Eric Badege')).results[0]?.id).toBe('un-sc:CDi.002');

    // A file that would drop most of the list is refused as probably truncated.
    await writeFile(unPath, good.replace(/<INDIVIDUAL>[\s\S]*<\/INDIVIDUALS>/, '</INDIVIDUALS>').replace(/<ENTITY>[\s\S]*<\/ENTITIES>/, '<ENTITY><DATAID>1</DATAID><FIRST_NAME>ONLY ONE LEFT</FIRST_NAME><REFERENCE_NUMBER>QDe.999</REFERENCE_NUMBER></ENTITY></ENTITIES>'));
    const [shrunk] = await refresh(['un-sc']);
    expect(shrunk).toMatchObject({ outcome: 'failed', versionId: before!.version });
    expect(shrunk!.error).toMatch(/shrink the list from 3 to 1/);

    // The good file again: unchanged against the serving version, and the error is cleared from the list view once a new version lands.
    await writeFile(unPath, good);
    const [restored] = await refresh(['un-sc']);
    expect(restored).toMatchObject({ outcome: 'unchanged', versionId: before!.version });
  });

  it('refuses a version that lost a companion file unless forced', async () => {
    const [before] = (await lists()).filter((l) => l.source === 'ofac-sdn');
    await rm(join(dir, 'ofac_sdn', 'alt.csv'));
    const [refused] = await refresh(['ofac-sdn']);
    expect(refused).toMatchObject({ outcome: 'failed', versionId: before!.version });
    expect(refused!.error).toMatch(/alt\.csv .*missing/);
    expect((await screen('Viktor But')).results[0]?.matchedName).toBe('BUT, Viktor');

    const [forced] = (await h.value<RefreshResponse>('screening.v1.refresh', { sources: ['ofac-sdn'], force: true }, 30_000)).results;
    expect(forced).toMatchObject({ outcome: 'updated', delta: { added: 0, changed: 1, removed: 0 } });
    expect((await screen('Viktor But')).results[0]?.matchedName).not.toBe('BUT, Viktor');
  });

  it('names an unknown source instead of ignoring it', async () => {
    const [outcome] = await refresh(['no-such-list']);
    expect(outcome).toMatchObject({ source: 'no-such-list', outcome: 'failed', error: 'no such source is configured' });
  });

  it('refuses a malformed refresh request with the field named', async () => {
    const reply = await h.request('screening.v1.refresh', { sources: 'ofac-sdn' });
    expect(reply.ok).toBe(false);
    if (!reply.ok) expect(reply.error.code).toBe('VALIDATION_FAILED');
  });

  it('logs the service going through all of this without a crash', () => {
    expect(service.child.exitCode).toBeNull();
  });
});
