import { bySourceId, fixture, names } from '../../test/helpers.js';
import { parseFtmJsonLines } from './ftm.parser.js';

describe('parseFtmJsonLines', () => {
  it('returns only target parties, joining addresses, sanctions and passports; a cut last line is ignored', async () => {
    const entities = await parseFtmJsonLines(fixture('ftm/entities.ftm.jsonl', 64));
    expect(entities.map((e) => `${e.listId}:${e.sourceId}:${e.type}`)).toEqual([
      'opensanctions:NK-person1:individual',
      'opensanctions:NK-company1:organization',
      'opensanctions:NK-vessel1:vessel',
    ]);
  });

  it('maps names, parts, weak and previous names, and person facts', async () => {
    const person = bySourceId(await parseFtmJsonLines(fixture('ftm/entities.ftm.jsonl')), 'NK-person1');
    expect(person.names.map((n) => [n.strength, n.kind ?? '', n.full, n.script ?? ''])).toEqual([
      ['primary', '', 'Maria Aleksandrovna Osetrova', ''],
      ['strong', 'aka', 'OSETROVA, Maria Aleksandrovna', ''],
      ['strong', 'aka', 'Мария Александровна Осетрова', 'Cyrl'],
      ['strong', 'aka', 'Mariya ZAKHAROVA', ''],
      ['strong', 'fka', 'Maria Zakharova', ''],
      ['weak', 'aka', 'Masha', ''],
    ]);
    expect(person.names[0]?.parts).toEqual({ given: 'Maria', patronymic: 'Aleksandrovna', family: 'Osetrova' });
    expect(person.birthDates).toEqual(['1988-01-07']);
    expect(person.nationalities).toEqual(['RU']);
    expect(person.citizenships).toEqual(['RU']);
    expect(person.gender).toBe('female');
    expect(person.identifiers).toEqual([
      { type: 'tax-id', value: '183116181362' },
      { type: 'passport', value: '7512345678', country: 'RU', note: 'Internal passport' },
    ]);
    expect(person.addresses).toEqual([
      { city: 'Izhevsk', postalCode: '426000', country: 'RU', full: 'ul. Lenina 1, Izhevsk, 426000, Russia' },
    ]);
    expect(person.datasets).toEqual(['gb_fcdo_sanctions', 'us_ofac_sdn']);
    expect(person.sourceUrl).toBe('https://www.opensanctions.org/entities/NK-person1/');
  });

  it('takes programs and the earliest listing date from Sanction entities', async () => {
    const entities = await parseFtmJsonLines(fixture('ftm/entities.ftm.jsonl'));
    const company = bySourceId(entities, 'NK-company1');
    expect(names(company)).toEqual(['primary:ZALA AERO', 'strong:AO ZALA AERO', 'strong:АО ЗАЛА АЭРО', 'strong:ZALA']);
    expect(company.programs).toEqual(['US-RUSHAR', 'UA-SA1644']);
    expect(company.listedOn).toBe('2021-05-14');
    expect(company.addresses).toEqual([{ full: 'ul. Pushkinskaya 3, Izhevsk, Russia' }]);
    const vessel = bySourceId(entities, 'NK-vessel1');
    expect(vessel.flag).toBe('MT');
    expect(vessel.identifiers.map((i) => `${i.type}=${i.value}`)).toEqual(['imo=9187629', 'call-sign=9HB3']);
  });
});
