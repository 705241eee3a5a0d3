import { parseConfig } from '@vigil/platform';
import { FEEDS } from '@vigil/proto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAMPLE_LISTS_DIR, envSchema } from '../env.js';
import { ListFetcher } from '../ingestion/list-fetcher.js';
import { parseFetched } from '../ingestion/list-parser.js';
import { discoverDir, officialDefinitions } from './sources.discovery.js';

describe('list sources', () => {
  const config = parseConfig(envSchema, { LISTS_DIR: SAMPLE_LISTS_DIR, LISTS_REFRESH_OVERRIDES: 'ofac-sdn=15' });

  it('finds every sample list, one source each, and covers all nine feeds', async () => {
    const { definitions, skipped } = await discoverDir(config);
    expect(definitions.map((d) => `${d.source}:${d.feed}`).sort()).toEqual([
      'eu-fsf:eu_sanctions',
      'ofac-cons:ofac',
      'ofac-sdn:ofac',
      'os-crime:crime',
      'os-gb-coh-disqualified:gb_coh_disqualified',
      'os-peps:peps',
      'os-regulatory:regulatory',
      'os-wanted:wanted',
      'uk-hmt:sanctions',
      'un-sc:sanctions',
      'us-bis-dpl:us_sanctions',
      'us-csl:us_sanctions',
    ]);
    expect(new Set(definitions.map((d) => d.feed))).toEqual(new Set(FEEDS));
    expect(skipped).toEqual(['README.md']);
    expect(definitions.find((d) => d.source === 'ofac-sdn')!.files.map((f) => f.name)).toEqual(['sdn.csv', 'add.csv', 'alt.csv', 'sdn_comments.csv']);
    expect(definitions.find((d) => d.source === 'ofac-sdn')!.refreshMinutes).toBe(15);
    expect(definitions.find((d) => d.source === 'un-sc')!.refreshMinutes).toBe(60);
  });

  it('parses every sample list with @vigil/lists', async () => {
    const { definitions } = await discoverDir(config);
    const fetcher = new ListFetcher(tmpdir(), 10_000);
    const counts: Record<string, number> = {};
    for (const d of definitions) counts[d.source] = (await parseFetched(d, await fetcher.fetch(d))).entities.length;
    expect(counts).toEqual({
      'eu-fsf': 3,
      'ofac-cons': 4,
      'ofac-sdn': 24,
      'os-crime': 2,
      'os-gb-coh-disqualified': 2,
      'os-peps': 5,
      'os-regulatory': 2,
      'os-wanted': 2,
      'uk-hmt': 3,
      'un-sc': 6,
      'us-bis-dpl': 3,
      'us-csl': 3,
    });
  });

  it('rejects a file whose content is not the source format', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vigil-parse-'));
    try {
      const { definitions } = await discoverDir(config);
      const un = definitions.find((d) => d.source === 'un-sc')!;
      const broken = join(dir, 'consolidated.xml');
      await writeFile(broken, '<?xml version="1.0"?>\n<CONSOLIDATED_LIST><INDIVIDUALS><INDIVIDUAL><DATAID>1</DATA');
      const fetched = await new ListFetcher(tmpdir(), 10_000).fetch({ ...un, files: [{ name: 'consolidated.xml', location: broken }] });
      await expect(parseFetched(un, fetched)).rejects.toMatchObject({ name: 'IngestionError' });
      await writeFile(broken, 'this is not a list at all\n');
      const garbage = await new ListFetcher(tmpdir(), 10_000).fetch({ ...un, files: [{ name: 'consolidated.xml', location: broken }] });
      await expect(parseFetched(un, garbage)).rejects.toMatchObject({ stage: 'validate' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('lists the official sources with their publishers and OpenSanctions datasets by feed', () => {
    const official = officialDefinitions(parseConfig(envSchema, { LISTS_SOURCE: 'official', LIST_LOCATIONS: 'un-sc=/mnt/un.xml,ofac-sdn=https://mirror.example/ofac/' }));
    const byKey = new Map(official.map((d) => [d.source, d]));
    expect(byKey.get('ofac-sdn')!.files[0]).toEqual({ name: 'sdn.csv', location: 'https://mirror.example/ofac/sdn.csv' });
    expect(byKey.get('un-sc')!.files).toEqual([{ name: 'consolidated.xml', location: '/mnt/un.xml' }]);
    expect(byKey.get('os-peps')).toMatchObject({ feed: 'peps', format: 'ftm-jsonl' });
    expect(byKey.get('os-gb-coh-disqualified')).toMatchObject({ feed: 'gb_coh_disqualified' });
    expect(byKey.get('eu-fsf')!.files[0]!.location).toMatch(/^https:\/\/webgate\.ec\.europa\.eu\//);
  });
});
