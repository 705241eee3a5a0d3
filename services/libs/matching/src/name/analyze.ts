import anyAscii from 'any-ascii';
import { doubleMetaphone } from 'double-metaphone';
import { consonantSkeleton } from '../text/abjad.js';
import { equivalenceGroup } from '../text/equivalents.js';
import { EDGE_ONLY_LEGAL, HONORIFICS, LEGAL_FORM_PHRASES, PARTICLES, STOPWORDS, VESSEL_PREFIXES } from '../text/lexicon.js';
import type { Script } from '../text/scripts.js';
import { transliterate } from '../text/translit.js';

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
  /** Name-equivalence group, -1 when none. */
  group: number;
};

export type NameForm = {
  /** Which reading of the name this is: `latin`, `translit-cyrl`, `ko-mr`, ... */
  scheme: string;
  tokens: NameToken[];
};

export type AnalyzedName = {
  raw: string;
  forms: NameForm[];
};

export type EntityTypeHint = 'individual' | 'organization' | 'vessel' | 'aircraft';

const APOSTROPHES = /['\u2018\u2019\u02bc\u02bb\u02bf\u02be\u00b4`\u055a\u05f3]/gu;
const MARKS = /\p{M}/gu;

/** Lower-cased ASCII words of a Latin-script string (see the normalisation rules in the tests). */
export function latinWords(text: string): string[] {
  let s = text.normalize('NFD').replace(MARKS, '').replace(APOSTROPHES, '');
  if (!/^[\x00-\x7f]*$/.test(s)) s = anyAscii(s);
  s = s.toLowerCase().replace(APOSTROPHES, '');
  // "S.A.", "C.V.", "U.S.A." are abbreviations, not initials
  s = s.replace(/(?<![a-z0-9])((?:[a-z]\.){2,})/g, (m) => m.replace(/\./g, '') + ' ');
  s = s.replace(/(?<![a-z])([a-z])\/([a-z])(?![a-z])/g, '$1$2');
  s = s.replace(/&/g, ' and ');
  s = s.replace(/([a-z])([0-9])/g, '$1 $2').replace(/([0-9])([a-z])/g, '$1 $2');
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

type RawWord = { text: string; script: Script };

function matchLegal(words: RawWord[], i: number, type: EntityTypeHint | undefined): { length: number; family: string } | null {
  if (type === 'individual') return null;
  const candidates = LEGAL_BY_FIRST.get(words[i]!.text);
  if (!candidates) return null;
  for (const phrase of candidates) {
    const n = phrase.tokens.length;
    if (i + n > words.length) continue;
    let ok = true;
    for (let k = 0; k < n; k++) if (words[i + k]!.text !== phrase.tokens[k]) ok = false;
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
      const text = words.slice(i, i + legal.length).map((x) => x.text).join('');
      tokens.push({ text, kind: 'legal', script: w.script, legal: legal.family, phonetic: [], skeleton: '', group: -1 });
      i += legal.length - 1;
      leading = false;
      continue;
    }
    let kind: TokenKind;
    if (/^[0-9]+$/.test(w.text)) kind = 'number';
    else if (i === 0 && n > 1 && (type === 'vessel' || type === undefined) && VESSEL_PREFIXES.has(w.text) && (type === 'vessel' || w.text !== 'ms' && w.text !== 'my')) kind = 'prefix';
    else if (leading && i < n - 1 && type !== 'organization' && type !== 'vessel' && HONORIFICS.has(w.text)) kind = 'honorific';
    else if (w.text.length === 1 && /[a-z]/.test(w.text) && n > 1 && !PARTICLES.has(w.text)) kind = 'initial';
    else if (n > 1 && PARTICLES.has(w.text)) kind = 'particle';
    else if (n > 1 && STOPWORDS.has(w.text)) kind = 'stop';
    else kind = 'word';
    if (kind !== 'honorific' && kind !== 'prefix') leading = false;
    const text = kind === 'number' ? w.text.replace(/^0+(?=\d)/, '') : w.text;
    const f = kind === 'word' || kind === 'particle' ? wordFeatures(text) : { phonetic: [], skeleton: '', group: -1 };
    tokens.push({ text, kind, script: w.script, phonetic: f.phonetic, skeleton: f.skeleton, group: f.group });
  }
  return tokens;
}

/**
 * Turns a raw name into its comparable forms: NFKC, case folding, every Latin reading
 * of non-Latin script, punctuation and diacritics removed, and each token classified.
 */
export function analyzeName(raw: string, type?: EntityTypeHint): AnalyzedName {
  let lower = raw.normalize('NFKC').toLowerCase().replace(/ß/g, 'ss');
  // Lists print persons "FAMILY, Given" (OFAC, UK); natural order keeps joined-token
  // matching ("Ramimakhlouf") working. Organisations keep their commas ("X, S.A.").
  if (type !== 'organization' && type !== 'vessel' && type !== 'aircraft') {
    const parts = lower.split(',');
    if (parts.length === 2 && parts[0]!.trim() && parts[1]!.trim()) lower = parts[1]!.trim() + ' ' + parts[0]!.trim();
  }
  const forms: NameForm[] = [];
  const seen = new Set<string>();
  for (const variant of transliterate(lower)) {
    const words: RawWord[] = [];
    for (const seg of variant.segments) for (const text of latinWords(seg.text)) words.push({ text, script: seg.script });
    if (words.length === 0) continue;
    const key = words.map((w) => w.text).join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    forms.push({ scheme: variant.scheme, tokens: classify(words, type) });
  }
  return { raw, forms };
}
