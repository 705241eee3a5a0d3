import { bySourceId, fixture, names, textBytes } from '../../test/helpers.js';
import { identifiersInText, parseUkCsv, parseUkOfsiCsv, parseUkSanctionsListCsv } from './uk-csv.parser.js';

describe('parseUkOfsiCsv', () => {
  it('decodes Windows-1252, skips the "Last Updated" line and groups rows by Group ID', async () => {
    const entities = await parseUkOfsiCsv(fixture('uk/sanctionsconlist.csv'));
    expect(entities.map((e) => `${e.listId}:${e.sourceId}:${e.type}`)).toEqual([
      'uk-hmt:13349:individual',
      'uk-hmt:14000:individual',
      'uk-hmt:13556:organization',
      'uk-hmt:10657:organization',
    ]);
    const naval = bySourceId(entities, '14000');
    expect(naval.names[0]).toEqual({
      full: 'José María NAVAL',
      strength: 'primary',
      parts: { given: 'José', middle: 'María', family: 'NAVAL' },
    });
    expect(naval.names[1]).toMatchObject({ full: 'Jose Maria NAVAL', strength: 'strong', kind: 'fka' });
    expect(naval.birthPlaces).toEqual(['Bogotá, Colombia']);
    expect(naval.identifiers).toEqual([
      { type: 'national-id', value: '79300555', country: 'CO', note: '79300555 (Colombian)' },
      { type: 'national-id', value: 'C-267185', note: 'C-267185' },
    ]);
  });

  it('merges the rows a group repeats per name and date of birth', async () => {
    const qahtani = bySourceId(await parseUkOfsiCsv(fixture('uk/sanctionsconlist.csv')), '13349');
    expect(names(qahtani)).toEqual(['primary:Farooq AL-QAHTANI', 'strong:Farouq AL-QAHTANI']);
    expect(qahtani.names[0]?.parts).toEqual({ title: 'Sheikh', given: 'Farooq', family: 'AL-QAHTANI' });
    expect(qahtani.birthDates).toEqual(['1980', '1981']);
    expect(qahtani.nationalities).toEqual(['SA', 'QA']);
    expect(qahtani.birthPlaces).toEqual(['Doha, Qatar']);
    expect(qahtani.positions).toEqual(['Emir for the eastern zone']);
    expect(qahtani.identifiers).toEqual([
      {
        type: 'passport',
        value: '592667',
        country: 'QA',
        note: 'Passport No: 592667 (Qatari passport issued on 3 May 2007).',
      },
    ]);
    expect(qahtani.addresses).toEqual([{ country: 'AF', full: 'Afghanistan (since 2009)' }]);
    expect(qahtani.listedOn).toBe('2016-04-01');
    expect(qahtani.programs).toEqual(["The ISIL (Da'esh) and Al-Qaida organisations"]);
  });

  it('reads the later OFSI layout with non-Latin names and alias quality', async () => {
    const header =
      'Name 6,Name 1,Name 2,Name 3,Name 4,Name 5,Title,Name Non-Latin Script,Non-Latin Script Type,Non-Latin Script Language,DOB,Town of Birth,Country of Birth,Nationality,Passport Number,Passport Details,National Identification Number,National Identification Details,Position,Address 1,Address 2,Address 3,Address 4,Address 5,Address 6,Post/Zip Code,Country,Other Information,Group Type,Alias Type,Alias Quality,Regime,Listed On,UK Sanctions List Date Designated,Last Updated,Group ID';
    const text = [
      'Last Updated,03/06/2022',
      header,
      "ZAWAHIRI,Ayman,,,,,Dr,أيمن الظواهري,Arabic,Arabic,19/06/1951,Giza,Egypt,Egyptian,1084010,Egyptian passport,,,,,,,,,,,,UN Ref QDi.006,Individual,Primary name,,ISIL (Da'esh) and Al-Qaida,02/10/2001,31/12/2020,01/02/2021,6897",
      "ABDEL RAHMAN,Aiman,,,,,,,,,,,,,,,,,,,,,,,,,,,Individual,AKA,Low,ISIL (Da'esh) and Al-Qaida,02/10/2001,31/12/2020,01/02/2021,6897",
    ].join('\n');
    const [zawahiri] = await parseUkCsv(textBytes(text));
    expect(zawahiri?.sourceId).toBe('6897');
    expect(zawahiri?.names.map((n) => [n.strength, n.full, n.script ?? ''])).toEqual([
      ['primary', 'Ayman ZAWAHIRI', ''],
      ['strong', 'أيمن الظواهري', 'Arab'],
      ['weak', 'Aiman ABDEL RAHMAN', ''],
    ]);
    expect(zawahiri?.identifiers).toEqual([
      { type: 'passport', value: '1084010', country: 'EG', note: 'Egyptian passport' },
    ]);
  });
});

describe('parseUkSanctionsListCsv', () => {
  it('groups by Unique ID and uses the OFSI Group ID as source id when there is one', async () => {
    const entities = await parseUkSanctionsListCsv(fixture('uk/UK_Sanctions_List.csv'));
    expect(entities.map((e) => `${e.sourceId}:${e.type}`)).toEqual(['7172:individual', 'RUS2176:vessel']);
    const akhund = bySourceId(entities, '7172');
    expect(akhund.names.map((n) => [n.strength, n.kind ?? '', n.full])).toEqual([
      ['primary', '', 'MOHAMMAD HASSAN AKHUND'],
      ['strong', 'original-script', 'محمد حسن آخوند'],
      ['strong', 'aka', 'MOHAMMED HASAN AKHUND'],
      ['weak', 'aka', 'HASSAN AKHUND'],
    ]);
    expect(akhund.birthDates).toEqual(['1958-01-01']);
    expect(akhund.gender).toBe('male');
    expect(akhund.identifiers).toEqual([
      { type: 'passport', value: 'OA123456', country: 'AF', note: 'Afghan passport' },
    ]);
    const ship = bySourceId(entities, 'RUS2176');
    expect(ship.flag).toBe('GA');
    expect(ship.identifiers).toEqual([{ type: 'imo', value: '9826902' }]);
  });

  it('extracts numbers from free-text document fields', () => {
    expect(
      identifiersInText('(1) A-333602 (Indian) issued on 4 June 1985 (2) M110522 (Indian)').map((i) => [
        i.value,
        i.country,
      ]),
    ).toEqual([
      ['A-333602', 'IN'],
      ['M110522', 'IN'],
    ]);
  });
});
