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
  ں: 'n', ځ: 'dz', څ: 'ts', ښ: 'sh', ږ: 'zh', ګ: 'g', ڼ: 'n', ۍ: 'y', ې: 'e',
};

const HEBREW: Record<string, string> = {
  א: 'a', ב: 'b', ג: 'g', ד: 'd', ה: 'h', ו: 'v', ז: 'z', ח: 'kh', ט: 't', י: 'y',
  כ: 'k', ך: 'k', ל: 'l', מ: 'm', ם: 'm', נ: 'n', ן: 'n', ס: 's', ע: '', פ: 'p',
  ף: 'f', צ: 'ts', ץ: 'ts', ק: 'k', ר: 'r', ש: 'sh', ת: 't',
};

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
 * token ("al") so that العبيدي lines up with "AL-UBAIDI" and with "Ubaidi"; الله stays
 * whole because there the article is part of the word.
 */
export function transliterateArabic(text: string): string {
  const clean = text.replace(ARABIC_DIACRITICS, '');
  return clean
    .split(/(\s+)/u)
    .map((word) => {
      if (/^\s*$/u.test(word)) return word;
      const chars = Array.from(word);
      if (chars.length >= 5 && chars[0] === 'ا' && chars[1] === 'ل' && word !== 'الله') {
        return 'al ' + mapWord(chars.slice(2).join(''), ARABIC, true);
      }
      if (chars.length >= 6 && (chars[0] === 'و' || chars[0] === 'ب') && chars[1] === 'ا' && chars[2] === 'ل') {
        // "wal-", "bil-" prefixes before the article
        return 'al ' + mapWord(chars.slice(3).join(''), ARABIC, true);
      }
      return mapWord(word, ARABIC, true);
    })
    .join('');
}

export function transliterateHebrew(text: string): string {
  return text
    .replace(HEBREW_POINTS, '')
    .split(/(\s+)/u)
    .map((word) => mapWord(word, HEBREW, false))
    .join('');
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
  let s = token;
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
