// vigil-v2's readings of a name: v1's (translit.ts) plus the scripts and spellings v1 misses.
// Han goes through pinyin-pro (readings in context, surnames read as surnames), kana through
// wanakana, Hebrew also gets a vocalised reading (vav and yod as vowels), Greek a phonetic one
// (μπ = b, ντ = d, ου = u...), and a Latin name that looks like a German, Dutch, Polish or
// Lithuanian transcription of a Russian name also gets the English one.
import { pinyin } from 'pinyin-pro';
import { toRomaji } from 'wanakana';
import { splitRuns, transliterate, type Run, type TranslitSegment, type TranslitVariant } from './translit.js';

/**
 * Mandarin readings of a Han run, syllable by syllable; with `joinGiven`, a three- or
 * four-character name read as the lists romanise Chinese names, the given name's syllables
 * written as one word after the surname (李侦宇 = LI Zhenyu).
 */
function hanReading(text: string, joinGiven = false): string {
  // whole runs, so pinyin-pro reads polyphonic characters in context; a leading character as a surname
  const syllables = pinyin(text, {
    toneType: 'none',
    type: 'array',
    surname: 'head',
    nonZh: 'consecutive',
    v: true,
  }).map((s) => s.toLowerCase());
  const name = /^\p{Script=Han}{3,4}$/u.test(text.trim()) && syllables.length >= 3;
  const out = joinGiven && name ? [syllables[0]!, syllables.slice(1).join('')] : syllables;
  return ' ' + out.join(' ') + ' ';
}

/**
 * Katakana spellings of foreign names add vowels after consonants (ブラジミル for Vladimir) and
 * have no ti, di or l: drop the added vowels and read チ as ti, ジ as di, in a second reading.
 */
export function kanaForeignReading(romaji: string): string {
  return romaji
    .split(/\s+/)
    .map((w) =>
      w
        .replace(/(.)\1+/g, '$1')
        .replace(/chi/g, 'ti')
        .replace(/ji/g, 'di')
        .replace(/tsu/g, 'ts')
        // the vowels kana adds: before r or l after a stop (ブラ bura = bra), s before a stop (スト suto = st), word-final
        .replace(/([bdfgkptvz])u(?=[rl])/g, '$1')
        .replace(/su(?=[ktp])/g, 's')
        // a doubled consonant of the original is written consonant-u-consonant (ハクカニ hakukani = Haqqani)
        .replace(/([bdfgkmpstz])u(?=\1)/g, '$1')
        .replace(/([bcdfghjklmnprstvwz])u$/g, '$1')
        .replace(/([td])o(?=[bcdfghjklmnprstvwz]|$)/g, '$1')
        .replace(/ou$/, 'o'),
    )
    .join(' ');
}

function kanaReadings(text: string): [string, string] {
  // the middle dot separates the words of a foreign name; the prolonged sound mark lengthens a vowel
  const romaji = toRomaji(text.replace(/[・･]/g, ' ').replace(/ー/g, '')).toLowerCase().replace(/'/g, '');
  return [romaji, kanaForeignReading(romaji)];
}

const HEBREW_LETTERS: Record<string, string> = {
  א: '',
  ב: 'b',
  ג: 'g',
  ד: 'd',
  ה: 'h',
  ז: 'z',
  ח: 'kh',
  ט: 't',
  כ: 'k',
  ך: 'k',
  ל: 'l',
  מ: 'm',
  ם: 'm',
  נ: 'n',
  ן: 'n',
  ס: 's',
  ע: '',
  פ: 'p',
  ף: 'f',
  צ: 'ts',
  ץ: 'ts',
  ק: 'k',
  ר: 'r',
  ש: 'sh',
  ת: 't',
};

/** Hebrew with vav and yod read as the vowels they usually write inside a word, and a geresh as in צ׳ (ch), ג׳ (j), ז׳ (zh). */
function hebrewVocalised(text: string): string {
  return text
    .replace(/[\u0591-\u05c7]/g, '')
    .split(/[^\u05d0-\u05ea\u05f3'׳]+/)
    .filter(Boolean)
    .map((word) => {
      const chars = Array.from(word);
      let out = '';
      for (let i = 0; i < chars.length; i++) {
        const ch = chars[i]!;
        const next = chars[i + 1];
        if (ch === '׳' || ch === "'") continue;
        const geresh = next === '׳' || next === "'";
        if (geresh && (ch === 'צ' || ch === 'ץ')) out += 'ch';
        else if (geresh && ch === 'ג') out += 'j';
        else if (geresh && ch === 'ז') out += 'zh';
        else if (ch === 'ו') {
          if (next === 'ו') {
            out += 'v';
            i++;
          } else out += i === 0 ? 'v' : 'u';
        } else if (ch === 'י') out += i === 0 && next !== undefined && next !== 'י' ? 'y' : 'i';
        else if (ch === 'א') out += i === 0 && (next === 'ו' || next === 'י') ? '' : 'a';
        else if (ch === 'ה' && i === chars.length - 1) out += 'a';
        else if (ch === 'ב' && i > 0) out += 'v';
        else out += HEBREW_LETTERS[ch] ?? '';
      }
      return out;
    })
    .join(' ');
}

const GREEK_DIGRAPHS: Array<[RegExp, string]> = [
  [/ου/g, 'u'],
  [/^μπ/g, 'b'],
  [/(\s)μπ/g, '$1b'],
  [/μπ/g, 'mb'],
  // ντ is d at the start of a word and nd (or nt) inside one: Ντόναλντ, Αμάντα; before τζ it is the n of nj or the d of dz
  [/ντζ/g, 'ndj'],
  [/^ντ/g, 'd'],
  [/(\s)ντ/g, '$1d'],
  [/ντ/g, 'nd'],
  [/γκ/g, 'g'],
  [/γγ/g, 'ng'],
  [/τσ/g, 'ts'],
  [/τζ/g, 'dj'],
  [/αι/g, 'e'],
  [/ει/g, 'i'],
  [/οι/g, 'i'],
  [/αυ/g, 'av'],
  [/ευ/g, 'ev'],
];
const GREEK_LETTERS: Record<string, string> = {
  α: 'a',
  β: 'v',
  γ: 'g',
  δ: 'd',
  ε: 'e',
  ζ: 'z',
  η: 'i',
  θ: 'th',
  ι: 'i',
  κ: 'k',
  λ: 'l',
  μ: 'm',
  ν: 'n',
  ξ: 'ks',
  ο: 'o',
  π: 'p',
  ρ: 'r',
  σ: 's',
  ς: 's',
  τ: 't',
  υ: 'i',
  φ: 'f',
  χ: 'kh',
  ψ: 'ps',
  ω: 'o',
};

/** Modern Greek read as it sounds, the way Greek renders foreign names (Μπους = Bush, Ντόναλντ = Donald). */
function greekPhonetic(text: string): string {
  let s = text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  for (const [from, to] of GREEK_DIGRAPHS) s = s.replace(from, to);
  let out = '';
  for (const ch of s) out += GREEK_LETTERS[ch] ?? ch;
  return out;
}

// ------------------------------------------------------------ national transcriptions of Russian names

/** Letters with diacritics the national spellings use, spelled as the English transcription writes them (before diacritics are stripped). */
const NATIONAL_LETTERS: Array<[RegExp, string]> = [
  [/šč/g, 'shch'],
  [/š/g, 'sh'],
  [/č/g, 'ch'],
  [/ž/g, 'zh'],
  [/ż/g, 'zh'],
  [/ł/g, 'l'],
];

/** Spelling rules by language: one pass, longest match first, so "tsch" → "ch" is not read again as "ch" → "kh". */
const NATIONAL_SPELLINGS: Record<string, string> = {
  schtsch: 'shch',
  sjtsj: 'shch',
  szcz: 'shch',
  tsch: 'ch',
  tsj: 'ch',
  sch: 'sh',
  sz: 'sh',
  cz: 'ch',
  sj: 'sh',
  zj: 'zh',
  oe: 'u',
  ch: 'kh',
  w: 'v',
};
const NATIONAL_PATTERN = /schtsch|sjtsj|szcz|tsch|tsj|sch|sz|cz|sj|zj|oe|ch|w/g;

function englishSpelling(word: string, national: boolean): string {
  let x = word.replace(NATIONAL_PATTERN, (m) => (m === 'ch' && !national ? m : NATIONAL_SPELLINGS[m]!));
  x = x
    .replace(/j(?=[aeiou])/g, 'y')
    .replace(/ij$/, 'iy')
    .replace(/yj$/, 'yy');
  return x.replace(/(?<=[aeiou])ss(?=[aeiou])/g, 's');
}

/** The Lithuanian case endings of men's names: Vladimiras, Sergejus, Putinas. */
function stripLithuanianEnding(w: string): string {
  if (w.length >= 6 && /(?:[bcdfghklmnprstvz]|kh|sh|ch|zh)as$/.test(w)) return w.slice(0, -2);
  if (w.length >= 6 && /iyus$/.test(w)) return w.slice(0, -2);
  if (w.length >= 6 && /yus$/.test(w)) return w.slice(0, -2);
  return w;
}

/**
 * A Latin name as a German, Dutch, Polish or Lithuanian text would spell a Russian one, back in
 * the English transcription the lists use; null when no rule applies. The English "ch" is kept
 * for words without any other national spelling, as it is far more common there.
 */
export function englishFromNationalTranscription(text: string): string | null {
  let s = text;
  for (const [from, to] of NATIONAL_LETTERS) s = s.replace(from, to);
  // Lithuanian diacritics, or (written without them) two words with a man's case ending: Vladimiras Putinas
  const lithuanian = s !== text || (s.match(/[bcdfghklmnprstvz](?:as|jus)\b/g) ?? []).length >= 2;
  const words = s.split(/(\s+)/);
  // "w", "sch", "cz", "oe"... say the spelling is not English; "j" before a vowel or a final "ij" only when the name has two such
  const strong = /tsch|tsj|szcz|sch|sz|cz|sj|zj|oe|w/.test(s);
  const weak = (s.match(/j[aeiou]|ij\b|yj\b/g) ?? []).length;
  let changed = lithuanian;
  const out = words.map((w) => {
    if (!/[a-z]/.test(w)) return w;
    const national = strong || weak >= 2;
    if (!national && !lithuanian) return w;
    let x = englishSpelling(w, national);
    if (lithuanian) x = stripLithuanianEnding(x);
    if (x !== w) changed = true;
    return x;
  });
  return changed ? out.join('') : null;
}

// ------------------------------------------------------------ the readings

function readRun(run: Run, second: boolean): TranslitSegment | null {
  switch (run.script) {
    case 'Hani':
      return { text: hanReading(run.text, second), script: 'Hani' };
    case 'Kana': {
      const [plain, foreign] = kanaReadings(run.text);
      return { text: second ? foreign : plain, script: 'Kana' };
    }
    case 'Grek':
      return { text: greekPhonetic(run.text), script: 'Grek' };
    default:
      return null;
  }
}

/** vigil-v2: every reading v1 makes, with its Han, kana and Greek readings replaced and the readings v1 lacks added (the national-transcription one for queries only). */
export function transliterateV2(lower: string, query = false): TranslitVariant[] {
  const runs = splitRuns(lower);
  const v1 = transliterate(lower, runs);
  let hani = false;
  let kana = false;
  let grek = false;
  let hebr = false;
  let latn = false;
  let cyrl = false;
  for (const r of runs) {
    if (r.script === 'Hani') hani = true;
    else if (r.script === 'Kana') kana = true;
    else if (r.script === 'Grek') grek = true;
    else if (r.script === 'Hebr') hebr = true;
    else if (r.script === 'Latn') latn = true;
    else if (r.script === 'Cyrl') cyrl = true;
  }
  const national = query && latn && !cyrl;
  // most names (every Latin list name) are read as v1 reads them
  if (!hani && !kana && !grek && !hebr && !national) return v1;
  const variants: TranslitVariant[] = [];
  const replaces = hani || kana || grek;
  for (const v of v1) {
    // Sino-Korean readings of Han (ko-mr, ko-rr) stay v1's; the Mandarin reading and kana/Greek are v2's
    if (replaces && !v.scheme.startsWith('ko-')) {
      // a second reading: kana as a foreign name is spelled, or a Chinese name with its given name joined
      const secondReading =
        kana || (hani && runs.some((r) => r.script === 'Hani' && /^\p{Script=Han}{3,4}$/u.test(r.text.trim())));
      for (const foreign of secondReading ? [false, true] : [false]) {
        const segments: TranslitSegment[] = [];
        let ri = 0;
        for (const run of runs) {
          const own = readRun(run, foreign);
          segments.push(own ?? v.segments[ri]!);
          ri++;
        }
        if (segments.length === v.segments.length)
          variants.push({
            scheme: foreign
              ? kana
                ? 'ja-foreign'
                : 'zh-given-joined'
              : v.scheme === 'latin'
                ? 'latin'
                : v.scheme.replace('translit-', 'v2-'),
            segments,
          });
        else variants.push(v);
      }
    } else variants.push(v);
  }
  if (hebr) {
    variants.push({
      scheme: 'he-vocalised',
      segments: runs.map((run) =>
        run.script === 'Hebr'
          ? { text: hebrewVocalised(run.text), script: 'Hebr' }
          : { text: run.text, script: run.script === 'Common' ? 'Latn' : run.script },
      ),
    });
  }
  // lists write Russian names in the English transcription; callers write them in their own
  if (national) {
    const english = englishFromNationalTranscription(lower);
    if (english !== null) variants.push({ scheme: 'ru-national', segments: [{ text: english, script: 'Latn' }] });
  }
  return variants;
}
