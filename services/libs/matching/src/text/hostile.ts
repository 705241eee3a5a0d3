// Screening input is hostile: the string a customer types decides the outcome, so a name must
// read the same however it was disguised. Before any reading of a name (transliteration, tokens,
// legal forms) three things happen, in this order:
//   1. every Default_Ignorable_Code_Point goes (tag characters, variation selectors, zero-width
//      characters, soft hyphens, bidi controls, the Mongolian vowel separator, Hangul fillers...):
//      they draw nothing, so a name with them looks exactly like the name without them;
//   2. NFKC, so full-width, mathematical and other compatibility letters are the letters they show
//      (and ignorables once more, should a compatibility form have produced one);
//   3. a word that mixes alphabets (Latin with a Cyrillic or Greek look-alike, "Niсolas") is read
//      in its main alphabet, each look-alike as the letter it is drawn like (Unicode UTS #39
//      confusables). A word written wholly in one alphabet is left alone: a fully Cyrillic or
//      Greek name is a name in that script, and its transliteration reads it;
//   4. unless the rest of the name is Latin and every letter of the word is drawn like a Latin one
//      ("GLOBAL TRADING Ѕ.А." with a Cyrillic Ѕ and А): then the name is a Latin name, and the word
//      is read as the Latin it shows.
// What was removed or folded is returned, so that an explanation can show the attempt.
import { CONFUSABLE_LETTERS } from './confusables-data.js';

/** The alphabets folding knows: Latin and those whose letters UTS #39 finds drawn like Latin ones. */
export type FoldScript = 'Latn' | 'Cyrl' | 'Grek' | 'Armn' | 'Cher' | 'Copt' | 'Lisu';

/** A letter read as another alphabet's look-alike. */
export type FoldedLetter = { from: string; fromScript: FoldScript; to: string; toScript: FoldScript };

/** Something done to a name to read it as it is seen. */
export type TextFinding =
  | { kind: 'invisible'; codePoints: readonly number[] }
  | { kind: 'mixedScript'; word: string; read: string; letters: readonly FoldedLetter[]; wholeWord?: true };

export type NeutralisedText = { text: string; findings: readonly TextFinding[] };

const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
const HAS_IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;
const WORD = /[\p{L}\p{M}]+/gu;
const MARK = /^\p{M}$/u;
const NO_FINDINGS: readonly TextFinding[] = Object.freeze([]);

/**
 * Lower-case look-alikes UTS #39 lists only as capitals (its prototypes are drawn from the glyphs'
 * outlines, and these lower-case forms differ in height): in a word that already mixes alphabets,
 * each is plainly standing in for the Latin letter it resembles, and a homoglyph generator uses
 * them as readily as the ones UTS #39 lists. Only applied inside mixed words.
 */
const LOOKALIKES_BEYOND_UTS39: ReadonlyArray<readonly [string, FoldScript, string]> = [
  ['\u043a', 'Cyrl', 'k'], // к
  ['\u043c', 'Cyrl', 'm'], // м
  ['\u043d', 'Cyrl', 'h'], // н
  ['\u0442', 'Cyrl', 't'], // т
  ['\u043f', 'Cyrl', 'n'], // п
  ['\u0438', 'Cyrl', 'u'], // и
  ['\u0448', 'Cyrl', 'w'], // ш
  ['\u03ba', 'Grek', 'k'], // κ
  ['\u03b7', 'Grek', 'n'], // η
  ['\u03c4', 'Grek', 't'], // τ
  ['\u03c9', 'Grek', 'w'], // ω
  ['\u03b5', 'Grek', 'e'], // ε
  ['\u03bc', 'Grek', 'u'], // μ
];

/** The Latin letter each known look-alike is drawn like, its script, and whether UTS #39 lists the pair. */
const TO_LATIN = new Map<string, { script: FoldScript; latin: string; uts39: boolean }>();
for (const [letter, script, latin] of CONFUSABLE_LETTERS)
  if (!TO_LATIN.has(letter)) TO_LATIN.set(letter, { script, latin, uts39: true });
for (const [letter, script, latin] of LOOKALIKES_BEYOND_UTS39)
  if (!TO_LATIN.has(letter)) TO_LATIN.set(letter, { script, latin, uts39: false });

/**
 * For a word mostly in Cyrillic or Greek, the letter of that script drawn like a given Latin letter.
 * UTS #39's pairs first, then the lower-case ones above; among a script's candidates, a letter of
 * the modern Russian or Greek alphabet before a rarer one (у before ү).
 */
const FROM_LATIN: Record<'Cyrl' | 'Grek', Map<string, string>> = { Cyrl: new Map(), Grek: new Map() };
const isCoreLetter = (letter: string, script: 'Cyrl' | 'Grek'): boolean => {
  const c = letter.codePointAt(0)!;
  return script === 'Cyrl' ? (c >= 0x0410 && c <= 0x044f) || c === 0x0401 || c === 0x0451 : c >= 0x0391 && c <= 0x03c9;
};
for (const core of [true, false]) {
  for (const [letter, script, latin] of [...CONFUSABLE_LETTERS, ...LOOKALIKES_BEYOND_UTS39]) {
    if (script !== 'Cyrl' && script !== 'Grek') continue;
    if (isCoreLetter(letter, script) !== core || FROM_LATIN[script].has(latin)) continue;
    FROM_LATIN[script].set(latin, letter);
  }
}

/** The alphabet of one letter, among those folding knows; 'Other' for any other letter. */
function scriptOfLetter(ch: string): FoldScript | 'Other' {
  const code = ch.codePointAt(0)!;
  if (code < 0x80) return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) ? 'Latn' : 'Other';
  const known = TO_LATIN.get(ch);
  if (known) return known.script;
  if (/\p{Script=Latin}/u.test(ch)) return 'Latn';
  if (/\p{Script=Cyrillic}/u.test(ch)) return 'Cyrl';
  if (/\p{Script=Greek}/u.test(ch)) return 'Grek';
  return 'Other';
}

// A word split evenly between alphabets is read as Latin, then Cyrillic, then Greek: the lists
// write names in Latin, and a spoof aims at a Latin name.
const MAIN_SCRIPTS: ReadonlyArray<'Latn' | 'Cyrl' | 'Grek'> = ['Latn', 'Cyrl', 'Grek'];

/** The letter `ch` of another alphabet is drawn like, in `target`; undefined when it has none. */
function lookalikeIn(ch: string, from: FoldScript | 'Other', target: 'Latn' | 'Cyrl' | 'Grek'): string | undefined {
  const latin = from === 'Latn' ? ch : TO_LATIN.get(ch)?.latin;
  if (latin === undefined) return undefined;
  return target === 'Latn' ? latin : FROM_LATIN[target].get(latin);
}

/** Reads one word that mixes alphabets in its main one; null when it does not mix them or nothing folds. */
function foldWord(word: string): { read: string; letters: FoldedLetter[] } | null {
  const chars = Array.from(word.normalize('NFD'));
  const counts = new Map<FoldScript | 'Other', number>();
  for (const ch of chars) {
    if (MARK.test(ch)) continue;
    const s = scriptOfLetter(ch);
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  if (counts.size < 2) return null;
  // A word every other letter of which UTS #39 finds drawn like a Latin one can be read wholly as
  // Latin ("Sһаnе" with three Cyrillic letters of five): a spoof aims at the Latin name the lists
  // write. Otherwise the alphabet with the most letters; only a Latin, Cyrillic or Greek word is
  // read in its own ("Пyтин" is Путин: П looks like no Latin letter).
  let main: 'Latn' | 'Cyrl' | 'Grek' | undefined;
  if (
    counts.has('Latn') &&
    chars.every((ch) => MARK.test(ch) || scriptOfLetter(ch) === 'Latn' || TO_LATIN.get(ch)?.uts39 === true)
  )
    main = 'Latn';
  else {
    for (const s of MAIN_SCRIPTS) if ((counts.get(s) ?? 0) > (main === undefined ? 0 : counts.get(main)!)) main = s;
    if (main === undefined) return null;
    for (const n of counts.values()) if (n > counts.get(main)!) return null;
  }
  const letters: FoldedLetter[] = [];
  let read = '';
  for (const ch of chars) {
    const s = MARK.test(ch) ? main : scriptOfLetter(ch);
    const to = s === main || s === 'Other' ? undefined : lookalikeIn(ch, s, main);
    if (to === undefined) {
      read += ch;
      continue;
    }
    read += to;
    letters.push({ from: ch, fromScript: s as FoldScript, to, toScript: main });
  }
  return letters.length === 0 ? null : { read: read.normalize('NFC'), letters };
}

/**
 * The name as it is seen: ignorables removed, NFKC, mixed-alphabet words read in their main
 * alphabet; with what was done. Plain ASCII (most list names and queries) is returned as it is.
 */
export function neutralise(raw: string): NeutralisedText {
  if (isAscii(raw)) return { text: raw, findings: NO_FINDINGS };
  const findings: TextFinding[] = [];
  let text = raw;
  if (HAS_IGNORABLE.test(text)) {
    const codePoints: number[] = [];
    const written = text;
    text = text.replace(IGNORABLE, (ch: string, at: number) => {
      if (!isPersianZwnj(written, ch, at)) codePoints.push(ch.codePointAt(0)!);
      return '';
    });
    if (codePoints.length > 0) findings.push({ kind: 'invisible', codePoints });
  }
  text = text.normalize('NFKC');
  if (HAS_IGNORABLE.test(text)) text = text.replace(IGNORABLE, '');
  if (!isAscii(text)) {
    text = text.replace(WORD, (word) => {
      const folded = foldWord(word);
      if (!folded) return word;
      findings.push({ kind: 'mixedScript', word, read: folded.read, letters: folded.letters });
      return folded.read;
    });
    if (!isAscii(text)) text = foldLookalikeWords(text, findings);
  }
  return { text, findings: findings.length === 0 ? NO_FINDINGS : findings };
}

const ZWNJ = '\u200c';
const ARABIC = /\p{Script=Arabic}/u;
const LETTER = /\p{L}/u;
const isArabicLetter = (ch: string | undefined): boolean => ch !== undefined && ARABIC.test(ch) && LETTER.test(ch);

/**
 * A zero-width non-joiner between two Arabic-script letters is spelling, not disguise: Persian,
 * Urdu and Pashto write it inside words to keep a part from joining the next (غیاث‌الدین, عبدالله‌زاده).
 * It still goes, so the name reads the same whether the writer used it, and lists write such
 * names joined (GHIASUDDIN, ABDOLLAHZADEH); but it is not reported as an attempt to deceive.
 */
function isPersianZwnj(text: string, ch: string, at: number): boolean {
  return ch === ZWNJ && isArabicLetter(text[at - 1]) && isArabicLetter(text[at + 1]);
}

/** Whether every letter of a word is Latin (marks aside). */
const isLatinWord = (word: string): boolean =>
  Array.from(word.normalize('NFD')).every((ch) => MARK.test(ch) || scriptOfLetter(ch) === 'Latn');

/** Whether a word has no Latin letter and every letter is one UTS #39 finds drawn like a Latin one. */
const isLookalikeWord = (word: string): boolean =>
  Array.from(word.normalize('NFD')).every((ch) => MARK.test(ch) || TO_LATIN.get(ch)?.uts39 === true);

/**
 * Step 4: in a name whose words are Latin or wholly made of Latin look-alikes, with at least one
 * Latin word, the look-alike words are read as Latin. A name with any other non-Latin word
 * ("Путин ВОР") is a name in that script, and is left to its transliteration.
 */
function foldLookalikeWords(text: string, findings: TextFinding[]): string {
  const words = text.match(WORD) ?? [];
  let latin = false;
  for (const w of words) {
    if (isLatinWord(w)) latin = true;
    else if (!isLookalikeWord(w)) return text;
  }
  if (!latin) return text;
  return text.replace(WORD, (word) => {
    if (isLatinWord(word)) return word;
    const letters: FoldedLetter[] = [];
    let read = '';
    for (const ch of Array.from(word.normalize('NFD'))) {
      const known = MARK.test(ch) ? undefined : TO_LATIN.get(ch);
      if (!known) {
        read += ch;
        continue;
      }
      read += known.latin;
      letters.push({ from: ch, fromScript: known.script, to: known.latin, toScript: 'Latn' });
    }
    read = read.normalize('NFC');
    findings.push({ kind: 'mixedScript', word, read, letters, wholeWord: true });
    return read;
  });
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

const SCRIPT_NAMES: Record<FoldScript, string> = {
  Latn: 'Latin',
  Cyrl: 'Cyrillic',
  Grek: 'Greek',
  Armn: 'Armenian',
  Cher: 'Cherokee',
  Copt: 'Coptic',
  Lisu: 'Lisu',
};

/** What kind of invisible character a code point is, for an analyst. */
function invisibleKind(code: number): string {
  if (code >= 0xe0000 && code <= 0xe007f) return 'tag character';
  if (
    (code >= 0xfe00 && code <= 0xfe0f) ||
    (code >= 0xe0100 && code <= 0xe01ef) ||
    (code >= 0x180b && code <= 0x180d) ||
    code === 0x180f
  )
    return 'variation selector';
  if (code === 0x180e) return 'Mongolian vowel separator';
  if (code === 0x00ad) return 'soft hyphen';
  if ((code >= 0x200b && code <= 0x200d) || code === 0x2060 || code === 0xfeff) return 'zero-width character';
  if (
    code === 0x200e ||
    code === 0x200f ||
    code === 0x061c ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  )
    return 'bidirectional control';
  if (code === 0x115f || code === 0x1160 || code === 0x3164 || code === 0xffa0) return 'Hangul filler';
  if (code === 0x034f) return 'combining grapheme joiner';
  return 'invisible character';
}

const hex = (code: number): string => 'U+' + code.toString(16).toUpperCase().padStart(4, '0');

/** One line an analyst reads about a finding: "Cyrillic с read as Latin c in "Niсolas"". */
export function describeFinding(f: TextFinding): string {
  if (f.kind === 'invisible') {
    const shown = f.codePoints.slice(0, 6).map((c) => `${hex(c)} ${invisibleKind(c)}`);
    const more = f.codePoints.length > shown.length ? `, and ${f.codePoints.length - shown.length} more` : '';
    return `${f.codePoints.length} invisible character${f.codePoints.length === 1 ? '' : 's'} removed from the query (${shown.join(', ')}${more})`;
  }
  const letters = f.letters.map(
    (l) => `${SCRIPT_NAMES[l.fromScript]} ${l.from} read as ${SCRIPT_NAMES[l.toScript]} ${l.to}`,
  );
  if (f.wholeWord)
    return `the word "${f.word}" in a Latin name is written in look-alike letters: ${letters.join(', ')} ("${f.read}")`;
  return `the word "${f.word}" mixes alphabets: ${letters.join(', ')} ("${f.read}")`;
}
