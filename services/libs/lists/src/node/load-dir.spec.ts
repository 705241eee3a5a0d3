import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES } from '../../test/helpers.js';
import { loadListsFromDir } from './load-dir.js';

describe('loadListsFromDir', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-lists-'));
    cpSync(FIXTURES, dir, { recursive: true });
    // A renamed file is still recognised by its content, and noise is skipped.
    renameSync(join(dir, 'un/UN_consolidated.xml'), join(dir, 'un/latest-download'));
    writeFileSync(join(dir, 'README.md'), '# notes\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('recognises every list under the folder, recursively, and reports what it loaded', async () => {
    const { sources, entities, skipped } = await loadListsFromDir(dir);
    expect(sources.map((s) => [s.listId, s.format, s.files.join(' + '), s.entityCount])).toEqual([
      ['us-csl', 'us-csl-csv', 'csl/csl.csv', 6],
      ['us-bis-dpl', 'us-bis-dpl-tsv', 'dpl/dpl.txt', 4],
      ['eu-fsf', 'eu-fsf-csv', 'eu/eu_fsf.csv', 3],
      ['eu-fsf', 'eu-fsf-xml', 'eu/eu_fsf.xml', 2],
      ['opensanctions', 'ftm-jsonl', 'ftm/entities.ftm.jsonl', 3],
      ['ofac-sdn', 'ofac-advanced-xml', 'ofac_advanced/SDN_ADVANCED.XML', 3],
      [
        'ofac-cons',
        'ofac-csv',
        'ofac_cons/cons_prim.csv + ofac_cons/cons_add.csv + ofac_cons/cons_alt.csv + ofac_cons/cons_comments.csv',
        2,
      ],
      ['ofac-sdn', 'ofac-csv', 'ofac_sdn/sdn.csv + ofac_sdn/add.csv + ofac_sdn/alt.csv + ofac_sdn/sdn_comments.csv', 7],
      ['ofac-sdn', 'ofac-xml', 'ofac_xml/SDN.XML', 3],
      ['uk-hmt', 'uk-sanctions-list-csv', 'uk/UK_Sanctions_List.csv', 2],
      ['uk-hmt', 'uk-ofsi-csv', 'uk/sanctionsconlist.csv', 4],
      ['un-sc', 'un-xml', 'un/latest-download', 3],
    ]);
    expect(entities).toHaveLength(sources.reduce((n, s) => n + s.entityCount, 0));
    expect(skipped).toEqual(['README.md']);
  });

  it('gives a file’s own SHA-256, or the digest of the sha256sum lines of a multi-file source', async () => {
    const { sources } = await loadListsFromDir(dir);
    const sha = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');
    const un = sources.find((s) => s.format === 'un-xml');
    expect(un?.sha256).toBe(sha(readFileSync(join(dir, 'un/latest-download'))));
    const ofac = sources.find((s) => s.listId === 'ofac-cons');
    const manifest = (ofac?.files ?? []).map((f) => `${sha(readFileSync(join(dir, f)))}  ${f}\n`).join('');
    expect(ofac?.sha256).toBe(sha(manifest));
  });

  it('gives the same entities in the same order on every load', async () => {
    const first = await loadListsFromDir(dir);
    const second = await loadListsFromDir(dir);
    expect(JSON.stringify(second.entities)).toBe(JSON.stringify(first.entities));
    expect(first.entities.slice(0, 3).map((e) => `${e.listId}:${e.sourceId}`)).toEqual([
      'us-csl:28263',
      'us-csl:17014',
      'us-csl:dcc742038bcb47f1bf9e805ef279484d',
    ]);
  });
});
