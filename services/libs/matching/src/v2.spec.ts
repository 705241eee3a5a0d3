// vigil-v2: per-script readings, national transcriptions and specificity rules, on names as the
// shared lists publish them (OFAC SDN ent_nums in the fixtures), each against vigil-v1.
import { getAlgorithm } from './algorithm.js';
import { explainMatch } from './explain.js';
import type { EntityMatch } from './match/score-entity.js';
import { entity } from './testing/fixtures.js';
import { looseKey } from './text/loose.js';
import { englishFromNationalTranscription, kanaForeignReading, transliterateV2 } from './text/translit-v2.js';

const LIST = [
  entity('35096', 'individual', ['PUTIN, Vladimir Vladimirovich', 'PUTIN, Vladimir'], { nationalities: ['RU'] }),
  entity('11447', 'individual', ['LI, Fangwei', 'LI, Karl'], { nationalities: ['CN'] }),
  entity('20157', 'individual', [{ full: 'KIM, Jong Un', parts: { given: 'Jong Un', family: 'KIM' } }], {
    addresses: [{ country: 'KP' }] as never,
  }),
  entity('17615', 'individual', ['JANG, Yong Son'], { addresses: [{ country: 'KP' }] as never }),
  entity('20242', 'individual', ['TIZINI, Nabil']),
  entity('38579', 'individual', ['CHECHIKHIN, Yuriy Valeryevich']),
  entity('15060', 'organization', ['HORIZON'], { addresses: [{ country: 'AE' }] as never }),
  entity('24305', 'individual', ['NADEEM, Faisal']),
  entity('ABELL', 'individual', ['Anna BELL'], {}, 'us-bis-dpl'),
  entity('CELAYA', 'individual', ['Jose Roberto CELAYA-MENDEZ'], {}, 'us-csl'),
  entity('10495', 'organization', ['ROSOBORONEXPORT OAO']),
  entity('BORTNIKOV', 'individual', ['BORTNIKOV, Aleksandr Vasilyevich']),
  entity('CONDE', 'individual', ['CONDE, Amadou']),
  entity('ZHAO', 'individual', ['ZHAO, Jianguo']),
  entity('VOLKOVA', 'individual', ['VOLKOVA, Olga Nikolaevna']),
];
const v1 = getAlgorithm('vigil-v1').build(LIST);
const v2 = getAlgorithm('vigil-v2').build(LIST);
const top = (matches: EntityMatch[]) =>
  matches[0] ? { id: matches[0].entity.sourceId, status: matches[0].status } : null;

describe('vigil-v2 readings', () => {
  it('reads Han with pinyin-pro, surname first', () => {
    expect(transliterateV2('李方伟')[0]!.segments[0]!.text.trim()).toBe('li fang wei');
  });
  it('reads katakana with wanakana, and as a foreign name without the added vowels', () => {
    expect(kanaForeignReading('burajimiru puchin')).toBe('bradimir putin');
    const schemes = transliterateV2('ブラジミル・プチン').map((v) => v.scheme);
    expect(schemes).toEqual(expect.arrayContaining(['ja-foreign']));
  });
  it('reads Hebrew vav and yod as vowels in a second reading', () => {
    const vocalised = transliterateV2('ולדימיר פוטין').find((v) => v.scheme === 'he-vocalised');
    // Hebrew does not write the a of Vladimir: the comparison keys bridge that
    expect(vocalised?.segments[0]!.text).toBe('vldimir putin');
  });
  it('reads Greek as it sounds: ντ and μπ are d and b at the start of a word, nd and mb inside one', () => {
    expect(transliterateV2('ντιμιτρι μπους')[0]!.segments[0]!.text).toBe('dimitri bus');
    expect(transliterateV2('βλαντιμιρ πουτιν')[0]!.segments[0]!.text).toBe('vlandimir putin');
    expect(transliterateV2('σοντζα')[0]!.segments[0]!.text).toBe('sondja');
  });
  it('compares Greek, kana and Hebrew readings by a loose key that folds what those scripts cannot tell apart', () => {
    // Greek ντ is the d of Vladimir and the nt of Conte; μπ the b of Bortnikov and the mb of Lambert
    expect(looseKey('vlandimir')).toBe(looseKey('vladimir'));
    expect(looseKey('konde')).toBe(looseKey('conte'));
    expect(looseKey('lambert')).toBe(looseKey('lambert'.replace('mb', 'b')));
    // Sonja is Σοντζα, Dzhabarov Ντζαμπαροβ, Yuri Ιουρι
    expect(looseKey('sondja')).toBe(looseKey('sonja'));
    expect(looseKey('djambarov')).toBe(looseKey('dzhabarov'));
    expect(looseKey('iuri')).toBe(looseKey('yuri'));
    // kana has no l and no v: オルガ・アリモバ is Olga Alimova
    expect(looseKey('oruga')).toBe(looseKey('olga'));
    expect(looseKey('arimoba')).toBe(looseKey('alimova'));
    // still different names
    expect(looseKey('konde')).not.toBe(looseKey('kane'));
  });
  it('reads a three-character Chinese name also with the given name joined, as lists write it', () => {
    const readings = transliterateV2('赵建国').map((v) => v.segments[0]!.text.trim());
    expect(readings).toEqual(expect.arrayContaining(['zhao jian guo', 'zhao jianguo']));
    expect(transliterateV2('李方').map((v) => v.scheme)).not.toContain('zh-given-joined');
  });
  it('spells German, Dutch, Polish and Lithuanian transcriptions of Russian names in English', () => {
    expect(englishFromNationalTranscription('jurij walerjewitsch tschetschichin')).toBe('yuriy valeryevich chechikhin');
    expect(englishFromNationalTranscription('wladimir poetin')).toBe('vladimir putin');
    expect(englishFromNationalTranscription('władimir putin')).toBe('vladimir putin');
    expect(englishFromNationalTranscription('vladimiras putinas')).toBe('vladimir putin');
    expect(englishFromNationalTranscription('john smith')).toBeNull();
  });
});

describe('vigil-v2 finds names v1 misses', () => {
  it.each([
    ['Han', '李方伟', '11447'],
    ['Hangul', '김정은', '20157'],
    ['kana (foreign-name spelling)', 'ウラジーミル・プーチン', '35096'],
    ['Hebrew', 'ולדימיר פוטין', '35096'],
    ['Greek', 'Βλαντιμίρ Πούτιν', '35096'],
    ['German transcription', 'Jurij Walerjewitsch Tschetschichin', '38579'],
    ['Dutch transcription', 'Wladimir Poetin', '35096'],
    ['Lithuanian transcription', 'Vladimiras Putinas', '35096'],
    ['typo in a three-letter word', 'Kom Jong Un', '20157'],
    ['Greek, d written ντ', 'Αλεξαντρ Βασιλιεβιτς Μπορτνικοβ', 'BORTNIKOV'],
    ['Greek, nd written ντ', 'Αμαντου Κοντε', 'CONDE'],
    ['Han, given name joined on the list', '赵建国', 'ZHAO'],
    ['kana without l or v', 'オルガ・ニコラエブナ・ヴォルコバ', 'VOLKOVA'],
  ])('%s: %s', (_kind, name, id) => {
    const m = top(v2.screen({ name, entityType: 'person' }));
    expect(m?.id).toBe(id);
    expect(m?.status).not.toBe('clear');
  });

  it('v1 misses the kana, Hebrew, Greek and Dutch ones', () => {
    for (const name of ['ウラジーミル・プーチン', 'ולדימיר פוטין', 'Βλαντιμίρ Πούτιν', 'Wladimir Poetin']) {
      expect(v1.screen({ name, entityType: 'person' }).filter((m) => m.status !== 'clear')).toEqual([]);
    }
  });
});

describe('vigil-v2 specificity', () => {
  const flagged = (name: string, extra: Record<string, string> = {}) =>
    v2
      .screen({ name, ...extra })
      .filter((m) => m.status !== 'clear')
      .map((m) => m.entity.sourceId);

  it('a one-word list name inside a longer company name needs support from a country or date', () => {
    expect(v1.screen({ name: 'Horizon Trading Ltd' })[0]!.status).toBe('review');
    expect(flagged('Horizon Trading Ltd')).toEqual([]);
    const m = v2.screen({ name: 'Horizon Trading Ltd' })[0]!;
    expect(m.qualifiers.map((q) => q.qualifier)).toContain('specificity');
    expect(flagged('Horizon Trading Ltd', { country: 'AE' })).toEqual(['15060']);
  });
  it('a person written as one company word is not that person', () => {
    expect(flagged('ANABELL S.A.')).toEqual([]);
    expect(flagged('FAISALNADEEM LTD')).toEqual([]);
  });
  it('a list name followed by a distinctive extra surname is a different name; an extra middle name is not', () => {
    expect(flagged('Nabil TIZINI Nakamura', { entityType: 'person' })).toEqual([]);
    expect(v1.screen({ name: 'Nabil TIZINI Nakamura', entityType: 'person' })[0]!.status).toBe('review');
    expect(flagged('Nabil Ahmad TIZINI', { entityType: 'person' })).toEqual(['20242']);
  });
  it('a short Chinese name does not flag a longer Korean name through its Sino-Korean reading', () => {
    expect(flagged('張英', { entityType: 'person' })).toEqual([]);
    expect(flagged('金正恩', { entityType: 'person' })).toEqual(['20157']);
  });
  it('half of a hyphenated surname with a common given name is not the listed person', () => {
    expect(flagged('Jose Mendez', { entityType: 'person' })).toEqual([]);
    expect(flagged('Jose Roberto Celaya Mendez', { entityType: 'person' })).toEqual(['CELAYA']);
  });
});

describe('vigil-v2 explanations', () => {
  const latin = v2.screen({ name: 'Vladimir Putin', entityType: 'person' })[0]!;
  const lines = (m: EntityMatch) => explainMatch(m, 1).split('\n');

  it.each([
    ['Han', '李方伟', '11447', 'transliteration(han→latin)'],
    ['Hebrew', 'ולדימיר פוטין', '35096', 'transliteration(hebrew→latin)'],
  ])(
    'a %s match reads like a Latin one: list name, the reading, each token pair and how it matched',
    (_script, name, id, vocabulary) => {
      const m = v2.screen({ name, entityType: 'person' })[0]!;
      expect(m.entity.sourceId).toBe(id);
      const text = explainMatch(m, 1);
      expect(text).toMatch(new RegExp(`matched (primary name|strong alias) "${m.matchedName}"`));
      // what the analyst cannot read is given back in Latin letters, next to the original
      expect(text).toContain(`query "${name}" read as "`);
      const tokenLines = lines(m).filter((l) => l.includes(' → '));
      expect(tokenLines.length).toBeGreaterThanOrEqual(2);
      for (const l of tokenLines) {
        expect(l).toContain(vocabulary);
        expect(l).toMatch(/score \d\.\d\d {2}weight \d\.\d\d {2}\(same name in another script or spelling\)/);
      }
      // no more noise than the Latin explanation of a comparable match
      expect(lines(m).filter((l) => l.includes('contradicts') || l.includes('not on the list name'))).toEqual([]);
      expect(lines(latin)[0]).toMatch(/^#1 BLOCKED/);
      expect(lines(m)[0]).toMatch(/^#1 BLOCKED/);
    },
  );
});
