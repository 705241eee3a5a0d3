import { bySourceId, fixture, names } from '../../test/helpers.js';
import { parseOfacAdvancedXml } from './ofac-advanced.parser.js';

describe('parseOfacAdvancedXml', () => {
  it('resolves parties through the file’s reference tables', async () => {
    const entities = await parseOfacAdvancedXml(fixture('ofac_advanced/SDN_ADVANCED.XML', 29));
    expect(entities.map((e) => `${e.sourceId}:${e.type}`)).toEqual([
      '40001:individual',
      '9702:vessel',
      '12001:organization',
    ]);

    const ivanov = bySourceId(entities, '40001');
    expect(ivanov.names).toEqual([
      {
        full: 'IVANOV, Ivan Petrovich',
        strength: 'primary',
        parts: { family: 'IVANOV', given: 'Ivan', patronymic: 'Petrovich' },
      },
      {
        full: 'ИВАНОВ, Иван Петрович',
        strength: 'strong',
        kind: 'original-script',
        parts: { family: 'ИВАНОВ', given: 'Иван', patronymic: 'Петрович' },
        script: 'Cyrl',
      },
      { full: 'VANYA', strength: 'weak', kind: 'aka', parts: { given: 'VANYA' } },
      { full: 'IVANOFF, Ivan', strength: 'strong', kind: 'fka', parts: { family: 'IVANOFF', given: 'Ivan' } },
    ]);
    expect(ivanov.birthDates).toEqual(['1961', '1962', '1963', '1975-03-12']);
    expect(ivanov.birthPlaces).toEqual(['Sverdlovsk, Russia']);
    expect(ivanov.nationalities).toEqual(['RU']);
    expect(ivanov.gender).toBe('male');
    expect(ivanov.positions).toEqual(['Deputy Minister of Energy']);
    expect(ivanov.addresses).toEqual([
      {
        street: '19 ul. Vavilova',
        city: 'Moscow',
        postalCode: '117312',
        country: 'RU',
        full: '19 ul. Vavilova, Moscow, 117312, Russia',
      },
    ]);
    expect(ivanov.identifiers).toEqual([
      { type: 'passport', value: '4509 123456', country: 'RU', note: 'Passport' },
      { type: 'crypto-address', value: '1AXUTu9y3H8w4wYx4BjyFWgRhZKDhmcMrn', chain: 'XBT', note: 'XBT' },
    ]);
    expect(ivanov.programs).toEqual(['RUSSIA-EO14024']);
    expect(ivanov.listedOn).toBe('2022-02-24');
  });

  it('reads vessels (flag, IMO from the documents, call sign) and entities (n.k.a., comment)', async () => {
    const entities = await parseOfacAdvancedXml(fixture('ofac_advanced/SDN_ADVANCED.XML'));
    const vessel = bySourceId(entities, '9702');
    expect(vessel.flag).toBe('MT');
    expect(vessel.identifiers.map((i) => `${i.type}=${i.value}`)).toEqual(['imo=9187629', 'call-sign=9HB3']);
    expect(vessel.listedOn).toBe('2019-09-04');
    const house = bySourceId(entities, '12001');
    expect(names(house)).toEqual(['primary:TRADING HOUSE EAST LLC', 'strong:EAST TRADING HOUSE']);
    expect(house.names[1]?.kind).toBe('nka');
    expect(house.remarks).toBe('Entity established 1991.');
  });
});
