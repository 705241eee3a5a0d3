import { analyzeName } from '../name/analyze.js';
import { V1_RULES } from '../rules.js';
import { coarseSkeleton, consonantSkeleton } from './abjad.js';
import { transliterateCyrillic } from './cyrillic.js';
import { transliterateDevanagari } from './devanagari.js';
import { hanjaToHangul, romaniseHangul } from './hangul.js';

// vigil-v1's readings (v2's own are in src/v2.spec.ts)
const forms = (name: string) => analyzeName(name, undefined, undefined, V1_RULES).forms.map((f) => f.tokens.map((t) => t.text).join(' '));

describe('Cyrillic', () => {
  test('Russian follows the spellings the lists print', () => {
    expect(transliterateCyrillic('сергей викторович лавров')).toBe('sergey viktorovich lavrov');
    expect(transliterateCyrillic('дмитрий юрьевич щербаков')).toBe('dmitriy yuryevich shcherbakov');
    expect(transliterateCyrillic('фёдор ёлкин')).toBe('fedor yolkin');
    expect(transliterateCyrillic('жуков хачатуров цой')).toBe('zhukov khachaturov tsoy');
  });

  test('Ukrainian is recognised by its letters and uses the Ukrainian system', () => {
    expect(transliterateCyrillic('олександр григорій їжак')).toBe('oleksandr hryhoriy yizhak');
  });

  test('scheme and script are recorded on the form', () => {
    const f = analyzeName('Сергей Лавров').forms[0]!;
    expect(f.scheme).toBe('translit-cyrl');
    expect(f.tokens.every((t) => t.script === 'Cyrl')).toBe(true);
  });
});

describe('Arabic and Hebrew', () => {
  test('the article is split off, except in "Allah"', () => {
    expect(forms('يحيى عبد الله العبيدي')).toEqual(['yhya abd allh al abydy']);
    expect(forms('القاعده في العراق')).toEqual(['al qadh fy al araq']);
  });

  test('consonant skeletons of Arabic script and of Latin spellings agree', () => {
    const arabic = analyzeName('يحيى عبد الله العبيدي').forms[0]!.tokens.map((t) => t.skeleton);
    expect(arabic[0]).toBe(consonantSkeleton('yahia'));
    expect(arabic[4]).toBe(consonantSkeleton('ubaidi'));
    expect(consonantSkeleton('qasim')).toBe(consonantSkeleton('kassem'));
    expect(consonantSkeleton('khalid')).toBe(consonantSkeleton('khaled'));
    expect(consonantSkeleton('abdallah')).toBe('BDL');
  });

  test('Hebrew is transliterated letter by letter and marked as Hebrew script', () => {
    const f = analyzeName('בנימין נתניהו').forms[0]!;
    expect(f.tokens.map((t) => t.text)).toEqual(['bnymyn', 'ntnyhv']);
    expect(f.tokens[0]!.script).toBe('Hebr');
  });
});

describe('Greek, kana, Devanagari', () => {
  test('Greek', () => {
    expect(forms('Αλέξανδρος Τσίπρας')).toEqual(['alexandros tsipras']);
  });

  test('hiragana and katakana give the same Hepburn reading', () => {
    expect(forms('やまだ たろう')).toEqual(['yamada tarou']);
    expect(forms('ヤマダ タロウ')).toEqual(['yamada tarou']);
  });

  test('Devanagari restores the inherent vowel and drops the final one', () => {
    expect(transliterateDevanagari('नरेंद्र मोदी')).toBe('narendra modi');
    expect(transliterateDevanagari('राम')).toBe('ram');
    expect(transliterateDevanagari('कमल')).toBe('kamal');
  });
});

describe('Korean and Chinese', () => {
  test('Hangul gives Revised Romanization and the McCune-Reischauer style, one token per syllable', () => {
    expect(romaniseHangul('김정은', 'rr')).toBe('gim jeong eun');
    expect(romaniseHangul('김정은', 'mr')).toBe('kim jong un');
    expect(forms('김정은')).toEqual(['gim jeong eun', 'kim jong un']);
  });

  test('a word-initial ㄹ is "r" in the North and silent in the South', () => {
    expect(romaniseHangul('리', 'mr')).toBe('ri');
    expect(romaniseHangul('리', 'rr')).toBe('i');
  });

  test('Han characters are read as Mandarin Pinyin and as Sino-Korean', () => {
    expect(hanjaToHangul('金正恩')).toBe('김정은');
    expect(forms('金正恩')).toEqual(['jin zheng en', 'kim jong un', 'gim jeong eun']);
    expect(forms('习近平')[0]).toBe('xi jin ping');
  });
});

describe('cross-script skeleton rules', () => {
  const arabic = (s: string) => analyzeName(s).forms[0]!.tokens;

  test('skeletons come from the Arabic letters, so د+ه is not read as "dh"', () => {
    expect(arabic('القاعده')[1]!.skeleton).toBe(consonantSkeleton('qaida'));
  });

  test('a French "c" before e/i is an s (Lounici), elsewhere a k', () => {
    expect(consonantSkeleton('lounici')).toBe(arabic('لونيسي')[0]!.skeleton);
    expect(consonantSkeleton('carim')).toBe('KRM');
  });

  test('the coarse skeleton folds the letters romanisations disagree on (ض ظ ذ ث, ق/g)', () => {
    expect(coarseSkeleton(consonantSkeleton('fadhil'))).toBe(coarseSkeleton(arabic('فاضل')[0]!.skeleton));
    expect(coarseSkeleton(consonantSkeleton('gasmi'))).toBe(coarseSkeleton(arabic('قاسمي')[0]!.skeleton));
  });

  test('Urdu letters are read too', () => {
    expect(arabic('ثناء اللہ')[1]!.skeleton).toBe('L');
  });
});
