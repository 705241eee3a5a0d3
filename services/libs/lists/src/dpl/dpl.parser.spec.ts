import { bySourceId, fixture } from '../../test/helpers.js';
import { dplSourceId, parseDplTsv } from './dpl.parser.js';

describe('parseDplTsv', () => {
  it('derives a stable key from name and effective date and merges a party’s address rows', async () => {
    const entities = await parseDplTsv(fixture('dpl/dpl.txt', 9));
    expect(entities.map((e) => e.sourceId)).toEqual([
      'I-ASH/2003-06-19',
      'ABDULAH-AL-NASSER/2002-03-04',
      'AL-NASER-WINGS-AIRLINES/2023-10-31',
      'ABDULAH-AL-NASSER/2019-05-01',
    ]);
    const nasser = bySourceId(entities, 'ABDULAH-AL-NASSER/2002-03-04');
    expect(nasser.addresses.map((a) => a.full)).toEqual([
      '605 TRAIL LAKE DRIVE, RICHARDSON, TX, 75081, US',
      '908 AUDELIA ROAD, SUIE 200, PMB #245, RICHARDSON, TX, 75081, US',
    ]);
    expect(nasser.addresses[0]).toMatchObject({ city: 'RICHARDSON', region: 'TX', postalCode: '75081', country: 'US' });
    expect(nasser.listedOn).toBe('2002-03-04');
    expect(nasser).toMatchObject({ listId: 'us-bis-dpl', type: 'individual', typeInferred: true });
    expect(bySourceId(entities, 'AL-NASER-WINGS-AIRLINES/2023-10-31').type).toBe('organization');
    expect(bySourceId(entities, 'I-ASH/2003-06-19').names[0]?.full).toBe('I. ASH');
  });

  it('builds the key the same way for the same party', () => {
    expect(dplSourceId(' Abdulah  al-Nasser ', '03/04/2002')).toBe('ABDULAH-AL-NASSER/2002-03-04');
    expect(dplSourceId('José Peña', '')).toBe('JOSE-PENA');
  });
});
