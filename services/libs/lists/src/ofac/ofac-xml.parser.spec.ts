import { bySourceId, collect, fixture, names } from '../../test/helpers.js';
import { parseOfacXml } from './ofac-xml.parser.js';

describe('parseOfacXml', () => {
  it('reads SDN.XML entries with names, strong and weak akas, ids, addresses and vessel info', async () => {
    const entities = await collect(parseOfacXml(fixture('ofac_xml/SDN.XML')));
    expect(entities.map((e) => e.sourceId)).toEqual(['28263', '9702', '12001']);

    const tian = bySourceId(entities, '28263');
    expect(tian.type).toBe('individual');
    expect(names(tian)).toEqual(['primary:TIAN, Yinyin', 'weak:tianyinyin0404', 'strong:TIAN, Yin Yin']);
    expect(tian.names[0]?.parts).toEqual({ given: 'Yinyin', family: 'TIAN' });
    expect(tian.gender).toBe('male');
    expect(tian.birthDates).toEqual(['1986-07-12', '1960', '1961', '1962']);
    expect(tian.birthPlaces).toEqual(['Jiangsu, China']);
    expect(tian.nationalities).toEqual(['CN']);
    expect(tian.addresses).toEqual([
      { city: 'Nanjing', region: 'Jiangsu', country: 'CN', full: 'Nanjing, Jiangsu, China' },
    ]);
    expect(tian.identifiers).toEqual([
      { type: 'crypto-address', value: '134r8iHv69xdT6p5qVKTsHrcUEuBVZAYak', chain: 'XBT', note: 'XBT' },
      { type: 'national-id', value: '321284198607120616', country: 'CN', note: 'Identification Number' },
    ]);
    expect(tian.linkedTo).toEqual(['LAZARUS GROUP']);

    const vessel = bySourceId(entities, '9702');
    expect(vessel.type).toBe('vessel');
    expect(vessel.flag).toBe('MT');
    expect(vessel.identifiers.map((i) => `${i.type}=${i.value}`)).toEqual([
      'imo=9187629',
      'mmsi=249417000',
      'call-sign=9HB3',
    ]);

    const house = bySourceId(entities, '12001');
    expect(names(house)).toEqual(['primary:TRADING HOUSE "EAST", LLC', 'strong:EAST TRADING HOUSE LLC']);
    expect(house.names[1]?.kind).toBe('nka');
  });

  it('uses the list id it is given (CONSOLIDATED.XML has the same schema)', async () => {
    const entities = await collect(parseOfacXml(fixture('ofac_xml/SDN.XML'), 'ofac-cons'));
    expect(entities.every((e) => e.listId === 'ofac-cons')).toBe(true);
  });
});
