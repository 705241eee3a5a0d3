import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Entity, ListId } from '../src/entity.js';
import { loadListsFromDir } from '../src/node/load-dir.js';

// Opt-in: parses the real snapshots in ../shared/data (beside the repository) and checks the
// counts measured in ../shared/data/lists/README.md. Run with `npm run test:shared`.
const SHARED = fileURLToPath(new URL('../../../../../shared/data/', import.meta.url));
const enabled = process.env['VIGIL_SHARED_LISTS'] === '1';
if (enabled && !existsSync(SHARED)) throw new Error(`VIGIL_SHARED_LISTS=1 but ${SHARED} does not exist`);
const suite = enabled ? describe : describe.skip;

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}

suite('the shared list snapshots', () => {
  let entities: Entity[] = [];
  let counts: Record<string, number> = {};
  let elapsedMs = 0;

  beforeAll(async () => {
    const started = performance.now();
    const result = await loadListsFromDir(SHARED + 'lists');
    elapsedMs = performance.now() - started;
    entities = result.entities;
    counts = Object.fromEntries(result.sources.map((s) => [`${s.listId} ${s.files[0]}`, s.entityCount]));
    // Timing is printed, not asserted: other work on the machine makes it vary; see `npm run parse:shared`.
    console.log(`parsed ${entities.length} entities in ${elapsedMs.toFixed(0)} ms`, counts);
  }, 60_000);

  const of = (listId: ListId): Entity[] => entities.filter((e) => e.listId === listId);

  it('finds the entity counts measured in the README', () => {
    expect(counts).toEqual({
      'ofac-cons ofac_consolidated/cons_prim.csv': 442,
      'ofac-sdn ofac_sdn/sdn.csv': 13_821,
      'opensanctions opensanctions/t1/entities.ftm.json': 6,
      'opensanctions opensanctions/zala/entities.ftm.json': 14,
      'uk-hmt uk_ofsi/sanctionsconlist.csv': 2_106,
      'un-sc un_sc/UN_consolidated.xml': 1_003,
      // 665 rows; rows of one denial order (same name and effective date) are one party.
      'us-bis-dpl us_bis_dpl/dpl.txt': 546,
      // 4,228 rows less the repeated header and 7 parties listed on two lists under one id.
      'us-csl us_csl/csl.csv': 4_220,
    });
  });

  it('types the entities as the README counts them', () => {
    expect(countBy(of('ofac-sdn'), (e) => e.type)).toEqual({
      individual: 6_646,
      organization: 6_033,
      vessel: 764,
      aircraft: 378,
    });
    expect(countBy(of('ofac-cons'), (e) => e.type)).toEqual({ individual: 79, organization: 363 });
    expect(countBy(of('un-sc'), (e) => e.type)).toEqual({ individual: 730, organization: 273 });
    expect(countBy(of('uk-hmt'), (e) => e.type)).toEqual({ individual: 1_426, organization: 680 });
  });

  it('keeps the UN original-script names with their script', () => {
    // 378 records carry NAME_ORIGINAL_SCRIPT; for QDe.164 it repeats the Latin primary name.
    const original = of('un-sc').filter((e) => e.names.some((n) => n.kind === 'original-script'));
    expect(original).toHaveLength(377);
    const scripts = countBy(
      original.flatMap((e) => e.names.filter((n) => n.kind === 'original-script')),
      (n) => n.script ?? 'Latn',
    );
    expect(scripts['Arab']).toBe(366);
    expect(scripts['Cyrl']).toBe(11);
  });

  it('gives every entity a primary name first and a source id unique within its list', () => {
    const bad = entities.filter(
      (e) => e.names[0]?.strength !== 'primary' || e.names.filter((n) => n.strength === 'primary').length !== 1,
    );
    expect(bad.map((e) => `${e.listId}:${e.sourceId}`)).toEqual([]);
    const keys = entities.map((e) => `${e.listId}\u0000${e.sourceId}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('normalises every birth date and country code', () => {
    const dates = entities.flatMap((e) => e.birthDates).filter((d) => !/^\d{4}(-\d{2}(-\d{2})?)?$/.test(d));
    const codes = entities.flatMap((e) => [...e.nationalities, ...e.citizenships]).filter((c) => !/^[A-Z]{2}$/.test(c));
    expect({ dates, codes }).toEqual({ dates: [], codes: [] });
  });

  it('parses a newer SDN file on its own (no add/alt files)', async () => {
    const update = await loadListsFromDir(SHARED + 'list-updates/ofac_sdn_2024-05-03');
    expect(update.sources.map((s) => [s.listId, s.entityCount])).toEqual([['ofac-sdn', 14_965]]);
    expect(countBy(update.entities, (e) => e.type)).toEqual({
      individual: 6_854,
      organization: 6_884,
      vessel: 851,
      aircraft: 376,
    });
  });
});
