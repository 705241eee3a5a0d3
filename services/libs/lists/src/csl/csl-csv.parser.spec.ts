import { bySourceId, fixture, names } from '../../test/helpers.js';
import { parseCslCsv } from './csl-csv.parser.js';

describe('parseCslCsv', () => {
  it('skips the repeated header row, merges rows sharing an id, and keeps a record cut off at end of file', async () => {
    const entities = await parseCslCsv(fixture('csl/csl.csv', 31));
    expect(entities.map((e) => e.sourceId)).toEqual([
      '28263',
      '17014',
      'dcc742038bcb47f1bf9e805ef279484d',
      '0b5e3a1f7d',
      '9702',
      '11476',
    ]);
    expect(entities.every((e) => e.listId === 'us-csl')).toBe(true);
    const cut = bySourceId(entities, '11476');
    expect(cut.names[0]?.full).toBe('BERMUDEZ SUAZA, Pedro Antonio');
    expect(cut.addresses.map((a) => a.full)).toEqual([
      'c/o ASES DE COMPETENCIA Y CIA. S.A., Medellin, CO',
      'Camino a San Mateo 41, la Cuspide departament',
    ]);
  });

  it('reads the "ids" triples, alt names, dates of birth and country codes', async () => {
    const tian = bySourceId(await parseCslCsv(fixture('csl/csl.csv')), '28263');
    expect(names(tian)).toEqual(['primary:TIAN, Yinyin', 'strong:tianyinyin0404', 'strong:snowsjohn']);
    expect(tian.gender).toBe('male');
    expect(tian.birthDates).toEqual(['1986-07-12']);
    expect(tian.nationalities).toEqual(['CN']);
    expect(tian.programs).toEqual(['DPRK3', 'CYBER2']);
    expect(tian.identifiers).toEqual([
      { type: 'crypto-address', value: '134r8iHv69xdT6p5qVKTsHrcUEuBVZAYak', chain: 'XBT', note: 'XBT' },
      { type: 'national-id', value: '321284198607120616', country: 'CN', note: 'Identification Number' },
    ]);
    expect(tian.addresses).toEqual([{ country: 'CN', full: 'Nanjing, Jiangsu, CN' }]);
  });

  it('keeps both lists of a party listed twice, and the earliest start date', async () => {
    const bank = bySourceId(await parseCslCsv(fixture('csl/csl.csv')), '17014');
    expect(bank.datasets).toEqual([
      'Non-SDN Menu-Based Sanctions List (NS-MBS List) - Treasury Department',
      'Sectoral Sanctions Identifications List (SSI) - Treasury Department',
    ]);
    expect(names(bank)).toEqual([
      'primary:Joint Stock Company Russian Agricultural Bank',
      'strong:ROSSELKHOZBANK',
      'strong:RUSSIAN AGRICULTURAL BANK',
      'strong:OAO ROSSELKHOZBANK',
    ]);
    expect(bank.programs).toEqual(['RUSSIA-EO14024', 'UKRAINE-EO13662']);
    expect(bank.listedOn).toBe('2014-07-16');
  });

  it('infers the type of BIS rows, which have none, and flags it', async () => {
    const entities = await parseCslCsv(fixture('csl/csl.csv'));
    expect(bySourceId(entities, 'dcc742038bcb47f1bf9e805ef279484d')).toMatchObject({
      type: 'organization',
      typeInferred: true,
    });
    expect(bySourceId(entities, '0b5e3a1f7d')).toMatchObject({ type: 'individual', typeInferred: true });
    expect(bySourceId(entities, '28263').typeInferred).toBeUndefined();
    const vessel = bySourceId(entities, '9702');
    expect(vessel.type).toBe('vessel');
    expect(vessel.flag).toBe('MT');
    expect(vessel.identifiers.map((i) => `${i.type}=${i.value}`)).toEqual([
      'call-sign=9HB3',
      'imo=9187629',
      'mmsi=249417000',
    ]);
  });
});
