import { analyzeName, latinWords } from '../name/analyze.js';

const texts = (name: string, type?: Parameters<typeof analyzeName>[1]) => analyzeName(name, type).forms[0]!.tokens.map((t) => t.text);
const kinds = (name: string, type?: Parameters<typeof analyzeName>[1]) => analyzeName(name, type).forms[0]!.tokens.map((t) => `${t.text}/${t.kind}`);

describe('normalisation of Latin text', () => {
  test('NFKC and case folding: full-width letters and ß', () => {
    expect(texts('ＡＬＩ Straße')).toEqual(['ali', 'strasse']);
  });

  test('diacritics and special Latin letters are folded', () => {
    expect(latinWords('Gédéon Łódź Øresund Çelik Ñandú')).toEqual(['gedeon', 'lodz', 'oresund', 'celik', 'nandu']);
  });

  test('apostrophes join, hyphens and punctuation split', () => {
    expect(latinWords("O'NEILL AL-SIBA'I CH'O'L-CHAE")).toEqual(['oneill', 'al', 'sibai', 'chol', 'chae']);
    expect(latinWords('Al-Qaida')).toEqual(latinWords('Al Qaida'));
  });

  test('dotted abbreviations are one token, a lone initial stays a letter', () => {
    expect(latinWords('S.A. DE C.V.')).toEqual(['sa', 'de', 'cv']);
    expect(latinWords('A. Omelchenko')).toEqual(['a', 'omelchenko']);
  });

  test('ampersand reads as "and"; letters and digits are split; M/V is one token', () => {
    expect(latinWords('A & S')).toEqual(['a', 'and', 's']);
    expect(latinWords('IRANHORMUZ12')).toEqual(['iranhormuz', '12']);
    expect(latinWords('M/V Destiny')).toEqual(['mv', 'destiny']);
  });
});

describe('token classes', () => {
  test('legal forms are recognised per language and kept as weak tokens, with their family', () => {
    const oao = analyzeName('OAO Gazprom').forms[0]!.tokens[0]!;
    const spelled = analyzeName('Open Joint Stock Company Gazprom', 'organization').forms[0]!.tokens[0]!;
    expect([oao.kind, oao.legal]).toEqual(['legal', 'jsc']);
    expect([spelled.kind, spelled.legal]).toEqual(['legal', 'jsc']);
    expect(kinds('GBJ DE COLIMA, S.A. DE C.V.', 'organization')).toEqual(['gbj/word', 'de/particle', 'colima/word', 'sadecv/legal']);
    expect(kinds('Aktiengesellschaft Muster', 'organization')[0]).toBe('aktiengesellschaft/legal');
  });

  test('a misspelt or differently romanised spelled-out legal form is still one', () => {
    const t = analyzeName('Obschestvo s ogranichennoy otvetstvennostyu Vidis', 'organization').forms[0]!.tokens;
    expect(t.map((x) => x.kind)).toEqual(['legal', 'word']);
    expect(t[0]!.legal).toBe('llc');
  });

  test('short legal forms that are also name syllables count only at the edge of an organisation name', () => {
    expect(kinds('AO Gazprom', 'organization')).toEqual(['ao/legal', 'gazprom/word']);
    expect(kinds('Pak Ao', 'individual')).toEqual(['pak/word', 'ao/word']);
    expect(kinds('Gazprom AO Export', 'organization')[1]).toBe('ao/word');
  });

  test('a name that is only a legal form stays a name', () => {
    expect(kinds('Limited', 'organization')).toEqual(['limited/word']);
  });

  test('honorifics are recognised only before the name', () => {
    expect(kinds('Sheikh Ali Hassan', 'individual')).toEqual(['sheikh/honorific', 'ali/word', 'hassan/word']);
    expect(kinds('Ali Hassan Sheikh')).toEqual(['ali/word', 'hassan/word', 'sheikh/word']);
  });

  test('particles and stop words are weak tokens; a lone particle is a word', () => {
    expect(kinds('Abd al-Rahman bin Laden of Iraq')).toEqual(['abd/word', 'al/particle', 'rahman/word', 'bin/particle', 'laden/word', 'of/stop', 'iraq/word']);
    expect(kinds('Al')).toEqual(['al/word']);
  });

  test('numbers are kept, without leading zeros', () => {
    expect(kinds('Snow Storm 007', 'vessel')).toEqual(['snow/word', 'storm/word', '7/number']);
  });

  test('vessel prefixes are ignored only at the start of a vessel name', () => {
    expect(kinds('M/V Destiny', 'vessel')).toEqual(['mv/prefix', 'destiny/word']);
    expect(kinds('SS Cumanagoto', 'vessel')[0]).toBe('ss/prefix');
    expect(kinds('Destiny SS', 'vessel')[1]).toBe('ss/word');
  });

  test('single letters are initials in person names and abbreviations in organisation names', () => {
    expect(kinds('A. Omelchenko')[0]).toBe('a/initial');
    expect(kinds('M-Finance LLC', 'organization')[0]).toBe('m/word');
  });

  test('generic organisation words are marked, but not in person names', () => {
    const org = analyzeName('Global Trading Company', 'organization').forms[0]!.tokens;
    expect(org.filter((t) => t.generic).map((t) => t.text)).toEqual(['global', 'trading']);
    expect(analyzeName('Trading Global', 'individual').forms[0]!.tokens.some((t) => t.generic)).toBe(false);
  });

  test('family names come from "FAMILY, Given", from the name parts, and from all-caps words in a mixed-case name', () => {
    const fam = (name: string, type?: Parameters<typeof analyzeName>[1], family?: string) =>
      analyzeName(name, type, family).forms[0]!.tokens.filter((t) => t.family).map((t) => t.text);
    expect(texts('MAKHLOUF, Rami', 'individual')).toEqual(['rami', 'makhlouf']);
    expect(fam('MAKHLOUF, Rami', 'individual')).toEqual(['makhlouf']);
    expect(fam('Mahmood Sultan Bashir-ud-Din', 'individual', 'BASHIR-UD-DIN')).toEqual(['bashir', 'din']);
    expect(fam('Ali FAROUK')).toEqual(['farouk']);
    expect(fam('ALI FAROUK')).toEqual([]);
  });

  test('organisations keep their commas; an untyped name with a legal tail is not reordered', () => {
    expect(kinds('GAZPROM INVEST, OOO', 'organization')).toEqual(['gazprom/word', 'invest/word', 'ooo/legal']);
    expect(texts('AHOME REAL ESTATE, S.A. DE C.V.')[0]).toBe('ahome');
  });
});
