import anyAscii from 'any-ascii';
import { doubleMetaphone } from 'double-metaphone';
import { consonantSkeleton, SUN_LETTER_CLASSES } from '../text/abjad.js';
import { equivalenceGroup } from '../text/equivalents.js';
import { neutralise, type TextFinding } from '../text/hostile.js';
import {
  EDGE_ONLY_LEGAL,
  GENERIC_ORG_WORDS,
  HONORIFICS,
  LEGAL_FORM_PHRASES,
  PARTICLES,
  STOPWORDS,
  VESSEL_PREFIXES,
} from '../text/lexicon.js';
import type { Script } from '../text/scripts.js';
import { boundedEditDistance } from '../similarity.js';
import { transliterate } from '../text/translit.js';
import { transliterateV2 } from '../text/translit-v2.js';
import { DEFAULT_RULES, type EngineRules } from '../rules.js';
import type { FormPlan } from './compare.js';

/**
 * What a token is, which decides its weight: a legal form, particle or honorific is
 * weak evidence, an initial matches any name with that first letter, and numbers
 * must agree exactly.
 */
export type TokenKind = 'word' | 'number' | 'initial' | 'legal' | 'particle' | 'stop' | 'honorific' | 'prefix';

export type NameToken = {
  /** Comparable form: lower-case ASCII, no punctuation. */
  text: string;
  kind: TokenKind;
  /** Script the token was written in before transliteration. */
  script: Script;
  /** Legal-form family (`jsc`, `llc`, ...) for kind `legal`. */
  legal?: string;
  /** Double Metaphone codes (primary, and secondary when it differs). */
  phonetic: readonly string[];
  /** Consonant skeleton, used against Arabic and Hebrew script. */
  skeleton: string;
  /** A second skeleton for joined Arabic words: the article written out (el-Sseid), where `skeleton` assimilates it (Abderrahmane). */
  skeleton2?: string;
  /** Name-equivalence group, -1 when none. */
  group: number;
  /** Known to be (part of) the family name: from "FAMILY, Given", the list's name parts, or an all-caps word in a mixed-case query. */
  family?: boolean;
  /** A word many organisations share ("trading", "international"). */
  generic?: boolean;
  /** Informativeness in [0, 1], set on list tokens by the index that holds them. */
  rarity?: number;
  /** Memo key of the token for comparison caches (set on first use). */
  key?: string;
  /** v2: part of a person's hyphenated surname written last ("Celaya-Mendez"). */
  compound?: boolean;
  /** v2: the list writes this word both joined and split (Gholamali, Gholam Ali), so a fuzzy join across its boundary counts. */
  bothWays?: boolean;
};

export type NameForm = {
  /** Which reading of the name this is: `latin`, `translit-cyrl`, `ko-mr`, ... */
  scheme: string;
  tokens: NameToken[];
  /** Scoring's memo of a list form (set on its first comparison). */
  plan?: FormPlan;
  /** Its plan's comparison key, read without the plan (set with it). */
  key?: number;
};

/**
 * Every token is made here, with every optional field present (undefined until set), so all
 * tokens share one hidden class: scoring reads their fields at the same sites for query,
 * list and joined tokens, and mixed shapes made those loads megamorphic.
 */
export function newToken(
  text: string,
  kind: TokenKind,
  script: Script,
  phonetic: readonly string[],
  skeleton: string,
  group: number,
  legal?: string,
): NameToken {
  return {
    text,
    kind,
    script,
    legal,
    phonetic,
    skeleton,
    skeleton2: undefined,
    group,
    family: undefined,
    generic: undefined,
    rarity: undefined,
    key: undefined,
    bothWays: undefined,
    compound: undefined,
  };
}

export type AnalyzedName = {
  raw: string;
  forms: NameForm[];
  /** What reading the name as it is seen took (invisible characters removed, look-alike letters folded); absent when nothing. */
  findings?: readonly TextFinding[];
};

export type EntityTypeHint = 'individual' | 'organization' | 'vessel' | 'aircraft';

const APOSTROPHES = /['\u2018\u2019\u02bc\u02bb\u02bf\u02be\u00b4`\u055a\u05f3]/gu;
const MARKS = /\p{M}/gu;
// The whole ASCII range, control characters included: a test of the string's range, not a pattern.
// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;
const DIGIT = /[0-9]/;

/** Lower-cased ASCII words of a Latin-script string (see the normalisation rules in the tests). */
export function latinWords(text: string): string[] {
  // most list names are plain ASCII: skip the Unicode work for them
  let s = ASCII.test(text) ? text : text.normalize('NFD').replace(MARKS, '');
  s = s.replace(APOSTROPHES, '');
  if (!ASCII.test(s)) s = anyAscii(s).replace(APOSTROPHES, '');
  s = s.toLowerCase();
  // "S.A.", "C.V.", "U.S.A." are abbreviations, not initials
  if (s.includes('.')) s = s.replace(/(?<![a-z0-9])((?:[a-z]\.){2,})/g, (m) => m.replace(/\./g, '') + ' ');
  if (s.includes('/')) s = s.replace(/(?<![a-z])([a-z])\/([a-z])(?![a-z])/g, '$1$2');
  if (s.includes('&')) s = s.replace(/&/g, ' and ');
  if (DIGIT.test(s)) s = s.replace(/([a-z])([0-9])/g, '$1 $2').replace(/([0-9])([a-z])/g, '$1 $2');
  return s.split(/[^a-z0-9]+/).filter((w) => w.length > 0);
}

const FEATURE_CACHE = new Map<string, { phonetic: readonly string[]; skeleton: string; group: number }>();
const FEATURE_CACHE_MAX = 500_000;

/** Phonetic keys, skeleton and equivalence group of a word, memoised. */
export function wordFeatures(text: string): { phonetic: readonly string[]; skeleton: string; group: number } {
  let f = FEATURE_CACHE.get(text);
  if (f) return f;
  let phonetic: readonly string[] = [];
  if (text.length >= 2 && !/^[0-9]+$/.test(text)) {
    const [p, s] = doubleMetaphone(text);
    phonetic = p && s && s !== p ? [p, s] : p ? [p] : [];
  }
  f = { phonetic, skeleton: consonantSkeleton(text), group: equivalenceGroup(text) };
  if (FEATURE_CACHE.size >= FEATURE_CACHE_MAX) FEATURE_CACHE.clear();
  FEATURE_CACHE.set(text, f);
  return f;
}

const LEGAL_BY_FIRST = new Map<string, Array<{ tokens: string[]; family: string }>>();
for (const phrase of LEGAL_FORM_PHRASES) {
  const first = phrase.tokens[0]!;
  const list = LEGAL_BY_FIRST.get(first) ?? [];
  list.push(phrase);
  LEGAL_BY_FIRST.set(first, list);
}

type RawWord = { text: string; script: Script; family?: boolean; skeleton?: string; compound?: boolean };

// Spelled-out legal forms ("obshchestvo s ogranichennoy otvetstvennostyu") come in
// several romanisations; long words of phrases of 3+ words may differ by two edits.
const LONG_PHRASES_BY_INITIAL = new Map<string, Array<{ tokens: string[]; family: string }>>();
for (const phrase of LEGAL_FORM_PHRASES) {
  if (phrase.tokens.length < 3) continue;
  const k = phrase.tokens[0]!.slice(0, 1);
  const list = LONG_PHRASES_BY_INITIAL.get(k) ?? [];
  list.push(phrase);
  LONG_PHRASES_BY_INITIAL.set(k, list);
}

function wordClose(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length < 6 || b.length < 6) return false;
  return boundedEditDistance(a, b, 2) <= 2;
}

function matchLegal(
  words: RawWord[],
  i: number,
  type: EntityTypeHint | undefined,
): { length: number; family: string } | null {
  if (type === 'individual') return null;
  const exact = LEGAL_BY_FIRST.get(words[i]!.text) ?? [];
  const fuzzy = LONG_PHRASES_BY_INITIAL.get(words[i]!.text.slice(0, 1)) ?? [];
  for (const phrase of [...exact, ...fuzzy]) {
    const n = phrase.tokens.length;
    if (i + n > words.length) continue;
    let ok = true;
    const close = n >= 3 ? wordClose : (a: string, b: string) => a === b;
    for (let k = 0; k < n && ok; k++) if (!close(words[i + k]!.text, phrase.tokens[k]!)) ok = false;
    if (!ok) continue;
    if (n === words.length) continue; // a name that is only a legal form is a name
    if (n === 1 && EDGE_ONLY_LEGAL.has(phrase.tokens[0]!)) {
      const atEdge = i === 0 || i + n === words.length;
      if (!atEdge || type === undefined) continue;
    }
    return { length: n, family: phrase.family };
  }
  return null;
}

function classify(words: RawWord[], type: EntityTypeHint | undefined): NameToken[] {
  const tokens: NameToken[] = [];
  const n = words.length;
  let leading = true;
  for (let i = 0; i < n; i++) {
    const w = words[i]!;
    const legal = matchLegal(words, i, type);
    if (legal) {
      const text = words
        .slice(i, i + legal.length)
        .map((x) => x.text)
        .join('');
      tokens.push(newToken(text, 'legal', w.script, [], '', -1, legal.family));
      i += legal.length - 1;
      leading = false;
      continue;
    }
    let kind: TokenKind;
    if (/^[0-9]+$/.test(w.text)) kind = 'number';
    else if (
      i === 0 &&
      n > 1 &&
      (type === 'vessel' || type === undefined) &&
      VESSEL_PREFIXES.has(w.text) &&
      (type === 'vessel' || (w.text !== 'ms' && w.text !== 'my'))
    )
      kind = 'prefix';
    else if (leading && i < n - 1 && type !== 'organization' && type !== 'vessel' && HONORIFICS.has(w.text))
      kind = 'honorific';
    // single letters of organisations are abbreviations ("M-Finance"), not initials
    else if (
      w.text.length === 1 &&
      /[a-z]/.test(w.text) &&
      n > 1 &&
      !PARTICLES.has(w.text) &&
      (type === undefined || type === 'individual')
    )
      kind = 'initial';
    else if (n > 1 && PARTICLES.has(w.text)) kind = 'particle';
    else if (n > 1 && STOPWORDS.has(w.text)) kind = 'stop';
    else kind = 'word';
    if (kind !== 'honorific' && kind !== 'prefix') leading = false;
    const text = kind === 'number' ? w.text.replace(/^0+(?=\d)/, '') : w.text;
    const f = kind === 'word' || kind === 'particle' ? wordFeatures(text) : { phonetic: [], skeleton: '', group: -1 };
    const token = newToken(text, kind, w.script, f.phonetic, w.skeleton ?? f.skeleton, f.group);
    if (w.family && kind === 'word') token.family = true;
    if (w.compound && kind === 'word') token.compound = true;
    if (kind === 'word' && type !== 'individual' && GENERIC_ORG_WORDS.has(text)) token.generic = true;
    tokens.push(token);
  }
  return tokens;
}

/** Token kinds that may join their neighbours into one word ("Husam al-Din" is "Husamaldin"), in comparison and retrieval alike. */
export function isJoinable(kind: TokenKind): boolean {
  return kind === 'word' || kind === 'particle' || kind === 'initial' || kind === 'stop';
}

/**
 * Turns a raw name into its comparable forms: the name as it is seen (text/hostile.ts: no
 * invisible characters, NFKC, look-alike letters of a mixed-alphabet word folded; in every
 * algorithm version, as it changes only names written to deceive), case folding, every Latin
 * reading of non-Latin script, punctuation and diacritics removed, and each token classified.
 */
export function analyzeName(
  written: string,
  type?: EntityTypeHint,
  familyName?: string,
  rules: EngineRules = DEFAULT_RULES,
  query = false,
): AnalyzedName {
  const asSeen = neutralise(written);
  const raw = asSeen.text;
  let lower = ASCII.test(raw) ? raw.toLowerCase() : raw.normalize('NFKC').toLowerCase().replace(/ß/g, 'ss');
  const family = new Set<string>();
  if (familyName) for (const w of latinWords(neutralise(familyName).text)) family.add(w);
  // Lists print persons "FAMILY, Given" (OFAC, UK); natural order keeps joined-token
  // matching ("Ramimakhlouf") working. Organisations keep their commas ("X, S.A.").
  if (type !== 'organization' && type !== 'vessel' && type !== 'aircraft') {
    const parts = lower.split(',');
    const legalTail = parts.length === 2 && latinWords(parts[1]!).some((w) => LEGAL_BY_FIRST.has(w));
    if (parts.length === 2 && parts[0]!.trim() && parts[1]!.trim() && !(type === undefined && legalTail)) {
      for (const w of latinWords(parts[0]!)) family.add(w);
      lower = parts[1]!.trim() + ' ' + parts[0]!.trim();
    } else if (type !== undefined || /[a-z]/.test(raw)) {
      // "Ali FAROUK": in a mixed-case person name the all-caps words are the family name
      const words = raw.split(/[\s,]+/);
      const caps = words.filter((w) => /^[^a-z]*[A-Z]{2}[^a-z]*$/.test(w));
      if (caps.length > 0 && caps.length < words.length && words.some((w) => /[a-z]/.test(w))) {
        for (const w of caps) for (const x of latinWords(w)) family.add(x);
      }
    }
  }
  // v2: a person's last word written with a hyphen ("Jose Roberto CELAYA-MENDEZ") is a compound surname
  const compound = new Set<string>();
  if (rules.policy.alignment.specificity !== null && !query && type === 'individual' && !raw.includes(',')) {
    const last = raw.trim().split(/\s+/).pop() ?? '';
    if (/\p{L}-\p{L}/u.test(last)) for (const w of latinWords(last)) compound.add(w);
  }
  const forms: NameForm[] = [];
  const seen = new Set<string>();
  for (const variant of rules.readings === 'v2' ? transliterateV2(lower, query) : transliterate(lower)) {
    const words: RawWord[] = [];
    for (const seg of variant.segments) {
      const segWords = latinWords(seg.text);
      const skeletons = seg.skeletons && seg.skeletons.length === segWords.length ? seg.skeletons : undefined;
      segWords.forEach((text, k) => {
        const w: RawWord = { text, script: seg.script };
        if (family.has(text)) w.family = true;
        if (compound.has(text)) w.compound = true;
        if (skeletons) w.skeleton = skeletons[k];
        words.push(w);
      });
    }
    if (words.length === 0) continue;
    const key = words.map((w) => w.text).join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    // plan and key are set later by scoring: present from the start, so forms keep one hidden class
    forms.push({ scheme: variant.scheme, tokens: classify(words, type), plan: undefined, key: undefined });
  }
  return asSeen.findings.length === 0 ? { raw: written, forms } : { raw: written, forms, findings: asSeen.findings };
}

/**
 * Adjacent tokens joined into one ("rami" + "makhlouf" → "ramimakhlouf"). Joined Arabic or
 * Hebrew words keep the skeletons of their letters rather than one re-derived from the
 * Latin guess, where a letter pair could read as a digraph.
 */
export function joinTokens(tokens: readonly NameToken[]): NameToken {
  const text = tokens.map((t) => t.text).join('');
  const f = wordFeatures(text);
  const first = tokens[0]!;
  const sameScript = tokens.every((t) => t.script === first.script);
  let skeleton = f.skeleton;
  let skeleton2: string | undefined;
  if (sameScript && (first.script === 'Arab' || first.script === 'Hebr')) {
    skeleton = '';
    let full = '';
    tokens.forEach((t, k) => {
      for (const ch of t.skeleton) if (full[full.length - 1] !== ch) full += ch;
      // joined spellings often assimilate the article before a sun letter: Abd al-Rahman → Abderrahmane
      const next = tokens[k + 1];
      if (t.text === 'al' && next && SUN_LETTER_CLASSES.has(next.skeleton.charAt(0))) return;
      for (const ch of t.skeleton) if (skeleton[skeleton.length - 1] !== ch) skeleton += ch;
    });
    if (full !== skeleton) skeleton2 = full;
  }
  const joined = newToken(text, 'word', sameScript ? first.script : 'Latn', f.phonetic, skeleton, f.group);
  if (skeleton2) joined.skeleton2 = skeleton2;
  return joined;
}

/**
 * v2: marks the tokens of an entity's names that the list writes both joined and split across
 * its names ("Gholamali" and "Gholam Ali"): the single token and the tokens it splits into.
 */
export function markBothWays(forms: ReadonlyArray<readonly NameForm[]>): void {
  // Most entities write no word both ways: look for a join among their words before marking anything.
  const words = new Set<string>();
  for (const fs of forms) for (const f of fs) for (const t of f.tokens) if (t.kind === 'word') words.add(t.text);
  let joinedWords: Set<string> | undefined;
  for (const fs of forms) {
    for (const f of fs) {
      const ts = f.tokens;
      for (let i = 0; i + 1 < ts.length; i++) {
        let joined = ts[i]!.text;
        for (let k = i + 1; k < ts.length && k <= i + 2; k++) {
          joined += ts[k]!.text;
          if (!words.has(joined)) continue;
          (joinedWords ??= new Set()).add(joined);
          for (let x = i; x <= k; x++) ts[x]!.bothWays = true;
        }
      }
    }
  }
  if (joinedWords === undefined) return;
  for (const fs of forms)
    for (const f of fs) for (const t of f.tokens) if (t.kind === 'word' && joinedWords.has(t.text)) t.bothWays = true;
}
