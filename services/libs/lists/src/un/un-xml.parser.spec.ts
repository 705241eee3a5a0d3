import { bySourceId, collect, fixture, names } from '../../test/helpers.js';
import { parseUnXml } from './un-xml.parser.js';

describe('parseUnXml', () => {
  it('reads individuals and entities with REFERENCE_NUMBER as source id', async () => {
    const entities = await collect(parseUnXml(fixture('un/UN_consolidated.xml', 7)));
    expect(entities.map((e) => `${e.listId}:${e.sourceId}:${e.type}`)).toEqual([
      'un-sc:IQi.001:individual',
      'un-sc:IRi.039:individual',
      'un-sc:QDe.131:organization',
    ]);
  });

  it('keeps the original-script name with its script, splits ";" aliases, and marks Low quality weak', async () => {
    const saddam = bySourceId(await collect(parseUnXml(fixture('un/UN_consolidated.xml'))), 'IQi.001');
    expect(saddam.names).toEqual([
      {
        full: 'SADDAM HUSSEIN AL-TIKRITI',
        strength: 'primary',
        parts: { given: 'SADDAM', middle: 'HUSSEIN', family: 'AL-TIKRITI' },
      },
      { full: 'صدام حسين التكريتي', strength: 'strong', kind: 'original-script', script: 'Arab' },
      { full: 'Abu Ali', strength: 'strong', kind: 'aka' },
      { full: 'Abou Ali', strength: 'weak', kind: 'aka' },
      { full: 'Abu Uday', strength: 'weak', kind: 'aka' },
    ]);
    expect(saddam.birthDates).toEqual(['1937-04-28']);
    expect(saddam.birthPlaces).toEqual(['al-Awja, near Tikrit, Iraq']);
    expect(saddam.nationalities).toEqual(['IQ']);
    expect(saddam.gender).toBe('male');
    expect(saddam.listedOn).toBe('2003-06-27');
    expect(saddam.programs).toEqual(['Iraq']);
    expect(saddam.positions).toEqual(['Former President of Iraq']);
    expect(saddam.addresses).toEqual([]);
  });

  it('expands BETWEEN years, resolves UN country names, reads documents and addresses', async () => {
    const soleimani = bySourceId(await collect(parseUnXml(fixture('un/UN_consolidated.xml'))), 'IRi.039');
    expect(names(soleimani)).toEqual([
      'primary:QASEM SOLEIMANI',
      'strong:Qasim Soleimani',
      'strong:Qasem Sulaimani',
      'strong:Haji Qassem',
    ]);
    expect(soleimani.names[3]?.kind).toBe('fka');
    // A short TITLE is an honorific of the name; Saddam's long one is a position.
    expect(soleimani.names[0]?.parts).toEqual({ title: 'Major General', given: 'QASEM', family: 'SOLEIMANI' });
    expect(soleimani.birthDates).toEqual(['1955', '1956', '1957']);
    expect(soleimani.nationalities).toEqual(['IR']);
    expect(soleimani.positions).toEqual(['Commander of Qods Force']);
    expect(soleimani.addresses).toEqual([
      { city: 'Tehran', country: 'IR', full: 'Tehran, Iran (Islamic Republic of) (as of 2019)' },
    ]);
    expect(soleimani.identifiers).toEqual([
      { type: 'passport', value: '008827', country: 'IR', note: 'Passport; Diplomatic passport issued 1999' },
      { type: 'national-id', value: '0123456789', note: 'National Identification Number' },
    ]);
  });

  it('reads entity names in Cyrillic', async () => {
    const emirate = bySourceId(await collect(parseUnXml(fixture('un/UN_consolidated.xml'))), 'QDe.131');
    expect(emirate.names.map((n) => [n.full, n.script ?? ''])).toEqual([
      ['EMIRATE KAVKAZ', ''],
      ['Эмират Кавказ', 'Cyrl'],
      ['Caucasus Emirate', ''],
    ]);
    expect(emirate.addresses).toEqual([
      { region: 'North Caucasus', country: 'RU', full: 'North Caucasus, Russian Federation' },
    ]);
  });
});
