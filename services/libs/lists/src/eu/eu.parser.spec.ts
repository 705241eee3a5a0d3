import { bySourceId, collect, fixture, names } from '../../test/helpers.js';
import { parseEuCsv } from './eu-csv.parser.js';
import { parseEuXml } from './eu-xml.parser.js';

describe('parseEuCsv', () => {
  it('groups the flattened rows by Entity_LogicalId; the first name is the primary', async () => {
    const entities = await parseEuCsv(fixture('eu/eu_fsf.csv', 11));
    expect(entities.map((e) => `${e.listId}:${e.sourceId}:${e.type}`)).toEqual([
      'eu-fsf:13:individual',
      'eu-fsf:7001:individual',
      'eu-fsf:9001:organization',
    ]);

    const saddam = bySourceId(entities, '13');
    expect(names(saddam)).toEqual(['primary:Saddam Hussein Al-Tikriti', 'strong:Abu Ali', 'strong:Abou Ali']);
    expect(saddam.names[0]?.parts).toEqual({ given: 'Saddam', family: 'Hussein Al-Tikriti' });
    expect(saddam.birthDates).toEqual(['1937-04-28']);
    expect(saddam.birthPlaces).toEqual(['al-Awja, near Tikrit, IRAQ']);
    expect(saddam.citizenships).toEqual(['IQ']);
    expect(saddam.gender).toBe('male');
    expect(saddam.positions).toEqual(['Former President of Iraq']);
    expect(saddam.programs).toEqual(['IRQ']);
    expect(saddam.listedOn).toBe('2003-07-07');
    expect(saddam.remarks).toBe('UNSC RESOLUTION 1483; see also the UN list');
  });

  it('reads year ranges, identifications, addresses and non-Latin names', async () => {
    const entities = await parseEuCsv(fixture('eu/eu_fsf.csv'));
    const ivanov = bySourceId(entities, '7001');
    expect(ivanov.names[1]).toEqual({ full: 'Иван Петрович ИВАНОВ', strength: 'strong', kind: 'aka', script: 'Cyrl' });
    expect(ivanov.birthDates).toEqual(['1961', '1962', '1963']);
    expect(ivanov.identifiers).toEqual([
      { type: 'passport', value: '4509 123456', country: 'RU', note: 'National passport' },
    ]);
    expect(ivanov.addresses).toEqual([
      {
        street: '19 ul. Vavilova',
        city: 'Moscow',
        postalCode: '117312',
        country: 'RU',
        full: '19 ul. Vavilova, Moscow, 117312, RUSSIAN FEDERATION',
      },
    ]);
    const company = bySourceId(entities, '9001');
    expect(company.names[0]?.full).toBe('LLC "Inter Tobacco"');
    expect(company.addresses).toEqual([
      { street: 'Pobediteley Ave. 1; office 5', city: 'Minsk', full: 'Pobediteley Ave. 1; office 5, Minsk' },
    ]);
    expect(company.identifiers).toEqual([
      { type: 'registration', value: '808000714', country: 'BY', note: 'Registration Number' },
    ]);
  });
});

describe('parseEuXml', () => {
  it('reads sanctionEntity elements; strong="false" aliases are weak', async () => {
    const entities = await collect(parseEuXml(fixture('eu/eu_fsf.xml', 17)));
    expect(entities.map((e) => `${e.sourceId}:${e.type}`)).toEqual(['13:individual', '8282:organization']);
    const saddam = bySourceId(entities, '13');
    expect(names(saddam)).toEqual(['primary:Saddam Hussein Al-Tikriti', 'strong:Abu Ali', 'weak:Abou Ali']);
    expect(saddam.birthDates).toEqual(['1937-04-28']);
    expect(saddam.citizenships).toEqual(['IQ']);
    expect(saddam.programs).toEqual(['IRQ']);
    expect(saddam.sourceUrl).toBe(
      'http://eur-lex.europa.eu/LexUriServ/LexUriServ.do?uri=OJ:L:2003:169:0006:0023:EN:PDF',
    );
    const company = bySourceId(entities, '8282');
    expect(names(company)).toEqual([
      'primary:LLC "Inter Tobacco"',
      'strong:Общество с ограниченной ответственностью "Интер Тобако"',
    ]);
    expect(company.addresses[0]?.country).toBe('BY');
    expect(company.listedOn).toBe('2022-06-03');
  });
});
