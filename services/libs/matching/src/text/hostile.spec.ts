import { analyzeName } from '../name/analyze.js';
import { CONFUSABLES_VERSION } from './confusables-data.js';
import { describeFinding, neutralise } from './hostile.js';

const tokens = (name: string) => analyzeName(name).forms[0]!.tokens.map((t) => t.text);

describe('reading a name as it is seen (hostile input)', () => {
  test('plain ASCII comes back as it is, with nothing to report', () => {
    expect(neutralise('Viktor BOUT')).toEqual({ text: 'Viktor BOUT', findings: [] });
  });

  test.each([
    ['tag characters', 'Kim Jong Un\u{E0041}\u{E0042}', [0xe0041, 0xe0042]],
    ['variation selectors', 'Put\uFE0Fin\u{E0100}', [0xfe0f, 0xe0100]],
    ['zero-width characters', 'Vla\u200Bdi\u200Dmir\u2060 Pu\uFEFFtin', [0x200b, 0x200d, 0x2060, 0xfeff]],
    ['a soft hyphen', 'Pu\u00ADtin', [0xad]],
    ['the Mongolian vowel separator and a Hangul filler', 'Pu\u180Etin\u3164', [0x180e, 0x3164]],
    ['bidirectional controls', '\u202EPutin\u202C\u2066', [0x202e, 0x202c, 0x2066]],
  ])('every Default_Ignorable_Code_Point goes: %s', (_what, name, codePoints) => {
    const seen = neutralise(name);
    expect(seen.text).not.toMatch(/\p{Default_Ignorable_Code_Point}/u);
    expect(seen.findings).toEqual([{ kind: 'invisible', codePoints }]);
  });

  test('invisible characters no longer split or lengthen a word', () => {
    expect(tokens('Pu\u200Btin Vla\u00ADdimir\u{E0041}')).toEqual(tokens('Putin Vladimir'));
  });

  test('NFKC: full-width and mathematical letters are the letters they show', () => {
    expect(neutralise('ＰＵＴＩＮ \u{1D415}\u{1D428}\u{1D42E}\u{1D42D}').text).toBe('PUTIN Vout');
  });

  test('a Latin word with one Cyrillic look-alike is read in Latin, and says so', () => {
    const seen = neutralise('Ni\u0441olas Maduro Moros');
    expect(seen.text).toBe('Nicolas Maduro Moros');
    expect(seen.findings.map(describeFinding)).toEqual([
      'the word "Ni\u0441olas" mixes alphabets: Cyrillic \u0441 read as Latin c ("Nicolas")',
    ]);
  });

  test('Greek and Cyrillic look-alikes together, capitals included (Cyrillic І is I)', () => {
    expect(neutralise('\u0412\u03BFut \u0406VANOV \u03A1utin').text).toBe('Bout IVANOV Putin');
  });

  test('a mostly Cyrillic word with a Latin look-alike is read in Cyrillic, then transliterated as before', () => {
    expect(neutralise('\u041Fy\u0442\u0438\u043D').text).toBe('\u041F\u0443\u0442\u0438\u043D');
    expect(tokens('\u041Fy\u0442\u0438\u043D')).toEqual(tokens('\u041F\u0443\u0442\u0438\u043D'));
  });

  test('a word whose other letters all look Latin is read as Latin, even when they are most of it', () => {
    expect(neutralise('S\u04BB\u0430n\u0435 \u0405\u041EE').text).toBe('Shane SOE');
  });

  test('a word wholly in Cyrillic or Greek keeps its transliteration, unfolded', () => {
    for (const name of [
      '\u0412\u041B\u0410\u0414\u0418\u041C\u0418\u0420 \u041F\u0423\u0422\u0418\u041D',
      '\u039F\u03B9\u03BA\u03BF\u03BD\u03CC\u03BC\u03BF\u03C5',
      '\u0421\u0435\u0440\u0433\u0435\u0439 \u041B\u0430\u0432\u0440\u043E\u0432 Sergey',
    ]) {
      expect(neutralise(name)).toEqual({ text: name, findings: [] });
    }
  });

  test('a word wholly in Latin look-alikes inside a Latin name is read as Latin (GLOBAL TRADING Ѕ.А.)', () => {
    const { text, findings } = neutralise('GLOBAL TRADING \u0405.\u0410.');
    expect(text).toBe('GLOBAL TRADING S.A.');
    expect(findings.map(describeFinding)).toEqual([
      'the word "\u0405" in a Latin name is written in look-alike letters: Cyrillic \u0405 read as Latin S ("S")',
      'the word "\u0410" in a Latin name is written in look-alike letters: Cyrillic \u0410 read as Latin A ("A")',
    ]);
    // beside a Cyrillic word that is not all look-alikes, the name is Cyrillic: left to transliteration
    expect(neutralise('\u041F\u0443\u0442\u0438\u043D \u0412\u041E\u0420 Vladimir').text).toBe(
      '\u041F\u0443\u0442\u0438\u043D \u0412\u041E\u0420 Vladimir',
    );
  });

  test('a zero-width non-joiner between Persian letters is spelling: it goes, unreported; elsewhere it is reported', () => {
    expect(neutralise('\u063A\u06CC\u0627\u062B\u200C\u0627\u0644\u062F\u06CC\u0646')).toEqual({
      text: '\u063A\u06CC\u0627\u062B\u0627\u0644\u062F\u06CC\u0646',
      findings: [],
    });
    expect(neutralise('Pu\u200Ctin').findings).toEqual([{ kind: 'invisible', codePoints: [0x200c] }]);
  });

  test('letters with no Latin look-alike, and Latin beside Han, are left to the readings', () => {
    expect(neutralise('\u6709\u9650\u4F1A\u793ECST').findings).toEqual([]);
    expect(neutralise('Put\u0436in').findings).toEqual([]);
  });

  test('accented look-alikes fold with their accent (Cyrillic ё in a Latin word)', () => {
    expect(neutralise('Ali\u0451v').text).toBe('Ali\u00EBv');
  });

  test('the table states its source version', () => {
    expect(CONFUSABLES_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
