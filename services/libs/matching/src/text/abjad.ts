// Arabic and Hebrew write consonants and long vowels only, so there is no single
// "right" Latin spelling of an Arabic name: يحيى is Yahya, Yahia, Yehia... What the
// spellings share is their consonant skeleton. We transliterate to a rough Latin
// guess (for display and n-grams) and compare abjad-derived tokens to Latin tokens by
// skeleton (see `consonantSkeleton`), which is the same function for both sides.

const ARABIC: Record<string, string> = {
  ا: 'a', أ: 'a', إ: 'i', آ: 'a', ٱ: 'a', ء: '', ئ: '', ؤ: '', ب: 'b', ت: 't', ث: 'th',
  ج: 'j', ح: 'h', خ: 'kh', د: 'd', ذ: 'dh', ر: 'r', ز: 'z', س: 's', ش: 'sh', ص: 's',
  ض: 'd', ط: 't', ظ: 'z', ع: '', غ: 'gh', ف: 'f', ق: 'q', ك: 'k', ل: 'l', م: 'm',
  ن: 'n', ه: 'h', ة: 'a', و: 'w', ي: 'y', ى: 'a',
  // Persian, Urdu and Pashto letters
  پ: 'p', چ: 'ch', ژ: 'zh', گ: 'g', ک: 'k', ی: 'y', ے: 'y', ۀ: 'a', ھ: 'h', ٹ: 't', ڈ: 'd', ڑ: 'r',
  ں: 'n', ځ: 'dz', څ: 'ts', ښ: 'sh', ږ: 'zh', ګ: 'g', ڼ: 'n', ۍ: 'y', ې: 'e', ہ: 'h', ۃ: 'a', ۂ: 'a',
};

const HEBREW: Record<string, string> = {
  א: 'a', ב: 'b', ג: 'g', ד: 'd', ה: 'h', ו: 'v', ז: 'z', ח: 'kh', ט: 't', י: 'y',
  כ: 'k', ך: 'k', ל: 'l', מ: 'm', ם: 'm', נ: 'n', ן: 'n', ס: 's', ע: '', פ: 'p',
  ף: 'f', צ: 'ts', ץ: 'ts', ק: 'k', ר: 'r', ש: 'sh', ת: 't',
};

// Consonant classes straight from the script, the same classes `consonantSkeleton` gives
// Latin spellings. Going through the Latin guess would invent digraphs: د+ه is not "dh".
const ARABIC_SKELETON: Record<string, string> = {
  ب: 'B', پ: 'B', ت: 'T', ث: 'T', ط: 'T', ٹ: 'T', ج: 'J', چ: '$', ژ: 'J', ح: 'H', ه: 'H', ھ: 'H', خ: 'X',
  ہ: 'H', د: 'D', ض: 'D', ڈ: 'D', ذ: 'Z', ز: 'Z', ظ: 'Z', ر: 'R', ڑ: 'R', س: 'S', ص: 'S', ش: '$', ښ: '$', غ: 'G',
  گ: 'G', ګ: 'G', ف: 'F', ق: 'K', ك: 'K', ک: 'K', ل: 'L', م: 'M', ن: 'N', ں: 'N', ڼ: 'N', ځ: 'Z', څ: 'S', ږ: 'J',
};
const HEBREW_SKELETON: Record<string, string> = {
  ב: 'B', ג: 'G', ד: 'D', ה: 'H', ז: 'Z', ח: 'X', ט: 'T', כ: 'K', ך: 'K', ל: 'L', מ: 'M', ם: 'M',
  נ: 'N', ן: 'N', ס: 'S', פ: 'F', ף: 'F', צ: 'S', ץ: 'S', ק: 'K', ר: 'R', ש: '$', ת: 'T',
};

function scriptSkeleton(word: string, table: Record<string, string>): string {
  let out = '';
  for (const ch of word) {
    const c = table[ch];
    if (c && out[out.length - 1] !== c) out += c;
  }
  if (out.length > 1 && out.endsWith('H')) out = out.slice(0, -1);
  return out;
}

/** A word of an abjad name: its rough Latin reading and its consonant skeleton. */
export type AbjadWord = { latin: string; skeleton: string };

const ARABIC_DIACRITICS = /[\u064b-\u065f\u0670\u06d6-\u06ed\u0640]/gu;
const HEBREW_POINTS = /[\u0591-\u05c7]/gu;

function mapWord(word: string, table: Record<string, string>, initialAyn: boolean): string {
  let out = '';
  let first = true;
  for (const ch of word) {
    if (first && initialAyn && ch === 'ع') out += 'a';
    else {
      const m = table[ch];
      out += m === undefined ? ch : m;
    }
    first = false;
  }
  return out;
}

/**
 * Arabic → rough Latin, word by word. The definite article ال is split off as its own
 * word ("al") so that العبيدي lines up with "AL-UBAIDI" and with "Ubaidi"; الله stays
 * whole because there the article is part of the word.
 */
export function arabicWords(text: string): AbjadWord[] {
  const out: AbjadWord[] = [];
  for (const raw of text.replace(ARABIC_DIACRITICS, '').split(/[^\p{L}]+/u)) {
    if (!raw) continue;
    const chars = Array.from(raw);
    let word = raw;
    if (chars.length >= 5 && chars[0] === 'ا' && chars[1] === 'ل' && raw !== 'الله') word = chars.slice(2).join('');
    else if (chars.length >= 6 && (chars[0] === 'و' || chars[0] === 'ب') && chars[1] === 'ا' && chars[2] === 'ل') word = chars.slice(3).join('');
    if (word !== raw) out.push({ latin: 'al', skeleton: 'L' });
    out.push({ latin: mapWord(word, ARABIC, true), skeleton: scriptSkeleton(word, ARABIC_SKELETON) });
  }
  return out;
}

export function transliterateArabic(text: string): string {
  return arabicWords(text).map((w) => w.latin).join(' ');
}

export function hebrewWords(text: string): AbjadWord[] {
  return text
    .replace(HEBREW_POINTS, '')
    .split(/[^\p{L}]+/u)
    .filter((w) => w)
    .map((w) => ({ latin: mapWord(w, HEBREW, false), skeleton: scriptSkeleton(w, HEBREW_SKELETON) }));
}

export function transliterateHebrew(text: string): string {
  return hebrewWords(text).map((w) => w.latin).join(' ');
}

const SKELETON_DIGRAPHS: Array<[string, string]> = [
  ['sch', '$'],
  ['tch', '$'],
  ['kh', 'X'],
  ['gh', 'G'],
  ['sh', '$'],
  ['ch', '$'],
  ['th', 'T'],
  ['dh', 'Z'],
  ['ph', 'F'],
  ['dj', 'J'],
  ['ts', 'S'],
  ['zh', 'J'],
];

const SKELETON_LETTERS: Record<string, string> = {
  b: 'B', p: 'B', t: 'T', d: 'D', z: 'Z', s: 'S', c: 'K', k: 'K', q: 'K', g: 'G', j: 'J',
  f: 'F', l: 'L', m: 'M', n: 'N', r: 'R', h: 'H', x: 'X',
  a: '', e: '', i: '', o: '', u: '', y: '', w: '', v: '',
};

/**
 * The consonant skeleton of an ASCII token: vowels and glides dropped, consonants
 * folded into classes that Arabic/Hebrew romanisations confuse (q/k, th/t, dh/z...),
 * doubled letters collapsed, and a word-final h dropped (ة, ه are written or not).
 */
export function consonantSkeleton(token: string): string {
  // a French "c" before e, i, y is an s: Lounici, Boucif
  let s = token.replace(/c(?=[eiy])/g, 's');
  for (const [from, to] of SKELETON_DIGRAPHS) if (s.includes(from)) s = s.split(from).join(to);
  let out = '';
  for (const ch of s) {
    const m = SKELETON_LETTERS[ch];
    const c = m === undefined ? (/[A-Z$]/.test(ch) ? ch : '') : m;
    if (c && out[out.length - 1] !== c) out += c;
  }
  if (out.length > 1 && out.endsWith('H')) out = out.slice(0, -1);
  return out;
}

/**
 * A coarser skeleton for the letters romanisations disagree on most: the interdental and
 * emphatic consonants (ث ذ ض ظ: t/th/d/dh/z) fold into one class, and ق with g (Gasmi, Ghedeir).
 */
const COARSE_CACHE = new Map<string, string>();

export function coarseSkeleton(skeleton: string): string {
  const cached = COARSE_CACHE.get(skeleton);
  if (cached !== undefined) return cached;
  let out = '';
  for (const ch of skeleton) {
    const c = ch === 'T' || ch === 'Z' ? 'D' : ch === 'G' ? 'K' : ch;
    if (out[out.length - 1] !== c) out += c;
  }
  if (COARSE_CACHE.size > 100_000) COARSE_CACHE.clear();
  COARSE_CACHE.set(skeleton, out);
  return out;
}

/** Skeleton classes of the Arabic "sun letters", before which the article's l is assimilated (ar-Rahman). */
export const SUN_LETTER_CLASSES = new Set(['T', 'D', 'Z', 'R', 'S', '$', 'L', 'N']);
