import type { Entity } from '@vigil/lists';
import type { ScreenResult } from '@vigil/proto';
import { groupParties, sameParty } from './parties.js';

const entity = (over: Omit<Partial<Entity>, 'names'> & { sourceId: string; names?: Array<{ full: string }> }): Entity =>
  ({
    listId: 'ofac-sdn',
    type: 'organization',
    names: [{ full: 'ROSNEFT OIL COMPANY' }],
    birthDates: [],
    birthPlaces: [],
    nationalities: [],
    citizenships: [],
    addresses: [],
    identifiers: [],
    programs: [],
    ...over,
  }) as Entity;

const result = (id: string, status: ScreenResult['status'], score: number): ScreenResult =>
  ({ id, name: id, status, score, source: 'ofac', sourceDataset: 'us_ofac_sdn', explanation: {} }) as ScreenResult;

describe('parties: one real-world party across lists', () => {
  it('joins entries that share an identifier, whatever their names', () => {
    const a = entity({ sourceId: '1', identifiers: [{ type: 'Registration ID', value: '1027700043502' }] });
    const b = entity({
      sourceId: '2',
      names: [{ full: 'OAO ROSNEFT' }],
      identifiers: [{ type: 'registration id', value: '1027-700-043502' }],
    });
    expect(sameParty(a, b)).toBe(true);
  });

  it('joins people only on a shared name and a shared date of birth', () => {
    const person = (sourceId: string, birthDates: string[]) =>
      entity({ sourceId, type: 'individual', names: [{ full: 'Nicolas Maduro Moros' }], birthDates });
    expect(sameParty(person('1', ['1962-11-23']), person('2', ['1962-11-23']))).toBe(true);
    expect(sameParty(person('1', ['1962-11-23']), person('2', ['1970-01-01']))).toBe(false);
    // No date of birth on either side: two people of one name are not thereby one person.
    expect(sameParty(person('1', []), person('2', []))).toBe(false);
  });

  it('joins organisations of the same name and type, never an organisation with a person', () => {
    expect(sameParty(entity({ sourceId: '1' }), entity({ sourceId: '2', listId: 'un-sc' }))).toBe(true);
    expect(sameParty(entity({ sourceId: '1' }), entity({ sourceId: '2', type: 'individual' }))).toBe(false);
  });

  it('groups candidates into parties, the strongest party and entry first, each with its list entries', () => {
    const parties = groupParties([
      {
        entity: entity({ sourceId: 'khan', type: 'individual', names: [{ full: 'KHAN, Hizb Ullah Astam' }] }),
        result: result('khan', 'review', 0.7),
        listVersion: null,
      },
      {
        entity: entity({ sourceId: 'h1', names: [{ full: 'HIZBALLAH' }] }),
        result: result('h1', 'review', 0.8),
        listVersion: null,
      },
      {
        entity: entity({ sourceId: 'h2', names: [{ full: 'HIZBALLAH' }] }),
        result: result('h2', 'blocked', 0.9),
        listVersion: null,
      },
    ]);
    expect(parties.map((p) => [p.status, p.entries.map((e) => e.entityId)])).toEqual([
      ['blocked', ['h2', 'h1']],
      ['review', ['khan']],
    ]);
  });
});
