import { bySourceId, fixture, names } from '../../test/helpers.js';
import { parseOfacCsv, splitOfacPrograms } from './ofac-csv.parser.js';

const sdn = () =>
  parseOfacCsv({
    main: fixture('ofac_sdn/sdn.csv'),
    addresses: fixture('ofac_sdn/add.csv'),
    aliases: fixture('ofac_sdn/alt.csv'),
    comments: fixture('ofac_sdn/sdn_comments.csv'),
  });

describe('parseOfacCsv', () => {
  it('joins the four files on ent_num, one entity per sdn.csv row, in file order', async () => {
    const entities = await sdn();
    expect(entities.map((e) => e.sourceId)).toEqual(['36', '306', '28263', '7001', '9702', '9801', '12001']);
    expect(new Set(entities.map((e) => e.listId))).toEqual(new Set(['ofac-sdn']));
  });

  it('reads "-0-" as empty', async () => {
    const aero = bySourceId(await sdn(), '36');
    expect(aero.type).toBe('organization');
    expect(aero.remarks).toBeUndefined();
    expect(aero.positions).toBeUndefined();
    expect(aero.identifiers).toEqual([]);
    expect(aero.addresses).toEqual([{ city: 'Havana', country: 'CU', full: 'Havana, Cuba' }]);
    expect(names(aero)).toEqual(['primary:AEROCARIBBEAN AIRLINES', 'strong:AERO-CARIBBEAN']);
  });

  it('continues cut remarks from the comments file, mid-word, and keeps remark a.k.a.s as weak aliases', async () => {
    const tian = bySourceId(await sdn(), '28263');
    expect(tian.type).toBe('individual');
    expect(tian.names[0]).toEqual({
      full: 'TIAN, Yinyin',
      strength: 'primary',
      parts: { given: 'Yinyin', family: 'TIAN' },
    });
    expect(names(tian)).toEqual(['primary:TIAN, Yinyin', 'weak:tianyinyin0404', 'weak:snowsjohn']);
    expect(tian.linkedTo).toEqual(['LAZARUS GROUP']);
    expect(tian.programs).toEqual(['DPRK3', 'CYBER2']);
    expect(tian.birthDates).toEqual(['1986-07-12']);
    expect(tian.nationalities).toEqual(['CN']);
    expect(tian.gender).toBe('male');
    expect(tian.identifiers.filter((i) => i.type === 'crypto-address').map((i) => i.value)).toEqual([
      '134r8iHv69xdT6p5qVKTsHrcUEuBVZAYak',
      '15YK647qtoZQDzNrvY6HJL6QwXduLHfT28',
    ]);
    expect(tian.remarks).toContain("a.k.a. 'snowsjohn'; Linked To: LAZARUS GROUP.");
    expect(tian.sourceUrl).toBe('https://sanctionssearch.ofac.treas.gov/Details.aspx?id=28263');
  });

  it('combines alt.csv aliases (strong, with kind) with remark aliases (weak)', async () => {
    const hasan = bySourceId(await sdn(), '7001');
    expect(hasan.names.map((n) => [n.strength, n.kind ?? '', n.full])).toEqual([
      ['primary', '', 'AL-HASAN, Abu Bakr Muhammad'],
      ['weak', 'fka', 'ABU BAKR AL-MASRI'],
      ['strong', 'aka', 'AL-MASRI, Abu Bakr'],
      ['strong', 'fka', 'HASSAN, Abu Bakr'],
    ]);
    expect(hasan.birthDates).toEqual(['1960', '1961', '1962', '1958']);
    expect(hasan.birthPlaces).toEqual(['Giza, Egypt']);
    expect(hasan.nationalities).toEqual(['EG', 'PS']);
    expect(hasan.citizenships).toEqual(['JO']);
    expect(hasan.addresses).toEqual([{ country: 'EG', full: 'Egypt (previous address)' }]);
  });

  it('reads vessels and aircraft: flag, call sign, IMO, MMSI, serial numbers', async () => {
    const entities = await sdn();
    const vessel = bySourceId(entities, '9702');
    expect(vessel.type).toBe('vessel');
    expect(vessel.flag).toBe('MT');
    expect(vessel.identifiers.map((i) => `${i.type}=${i.value}`)).toEqual([
      'call-sign=9HB3',
      'imo=9187629',
      'mmsi=249417000',
    ]);
    const aircraft = bySourceId(entities, '9801');
    expect(aircraft.type).toBe('aircraft');
    expect(aircraft.flag).toBe('IR');
    expect(aircraft.identifiers.map((i) => `${i.type}=${i.value}`)).toEqual([
      'aircraft-serial=8401',
      'aircraft-serial=1001',
    ]);
  });

  it('keeps doubled quotes in names and n.k.a. kinds', async () => {
    const house = bySourceId(await sdn(), '12001');
    expect(names(house)).toEqual([
      'primary:TRADING HOUSE "EAST", LLC',
      'strong:EAST TRADING HOUSE LLC',
      'strong:TRADING HOUSE EAST, LLC',
    ]);
    expect(house.names[1]?.kind).toBe('nka');
    expect(house.identifiers.map((i) => `${i.type}=${i.value}/${i.country ?? ''}`)).toEqual([
      'tax-id=7707083893/RU',
      'registration=1027700132195/RU',
      'swift-bic=SABRRUMM/',
      'website=www.example.ru/',
    ]);
  });

  it('reads the consolidated (non-SDN) set under its own list id', async () => {
    const entities = await parseOfacCsv(
      {
        main: fixture('ofac_cons/cons_prim.csv'),
        addresses: fixture('ofac_cons/cons_add.csv'),
        aliases: fixture('ofac_cons/cons_alt.csv'),
        comments: fixture('ofac_cons/cons_comments.csv'),
      },
      'ofac-cons',
    );
    expect(entities.map((e) => `${e.listId}:${e.sourceId}`)).toEqual(['ofac-cons:17016', 'ofac-cons:30882']);
    expect(bySourceId(entities, '17016').programs).toEqual(['UKRAINE-EO13662', 'RUSSIA-EO14024']);
    expect(names(bySourceId(entities, '30882'))).toEqual([
      'primary:CHINA TELECOM CORPORATION LIMITED',
      'strong:CHINA TELECOM CO., LTD',
    ]);
  });

  it('works with the main file alone', async () => {
    const entities = await parseOfacCsv({ main: fixture('ofac_sdn/sdn.csv') });
    expect(entities).toHaveLength(7);
    expect(bySourceId(entities, '306').names.map((n) => n.full)).toEqual(['BANCO NACIONAL DE CUBA', 'BNC']);
  });

  it('splits bracketed program lists', () => {
    expect(splitOfacPrograms('SDGT] [SYRIA')).toEqual(['SDGT', 'SYRIA']);
    expect(splitOfacPrograms('-0- ')).toEqual([]);
  });
});
