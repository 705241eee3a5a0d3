import { analyzeName, type EntityTypeHint, type TokenKind } from './name/analyze.js';
import { trigrams } from './similarity.js';

/**
 * The retrieval features of one reading of a name, in the shape a search engine
 * (Elasticsearch keyword and n-gram fields) can index and query directly: the same
 * tokens, phonetic keys, skeletons and trigrams the in-memory index uses.
 */
export type NameFeatureForm = {
  scheme: string;
  /** Comparable tokens in order, with their kinds. */
  tokens: Array<{ text: string; kind: TokenKind }>;
  /** Distinctive tokens only (words and numbers): what should retrieve candidates. */
  terms: string[];
  /** Double Metaphone codes of the words. */
  phonetic: string[];
  /** Consonant skeletons of the words (cross-script retrieval for Arabic/Hebrew). */
  skeletons: string[];
  /** Adjacent words joined ("rami makhlouf" → "ramimakhlouf"). */
  joined: string[];
  /** Padded character trigrams of the distinctive tokens. */
  trigrams: string[];
  /** Legal-form families present (`llc`, `jsc`, ...). */
  legalForms: string[];
  numbers: string[];
};

export type NameFeatures = { name: string; forms: NameFeatureForm[] };

function uniqueSorted(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

export function nameFeatures(name: string, type?: EntityTypeHint): NameFeatures {
  const analyzed = analyzeName(name, type);
  return {
    name,
    forms: analyzed.forms.map((form) => {
      const t = form.tokens;
      const words = t.filter((x) => x.kind === 'word');
      const joined: string[] = [];
      for (let i = 0; i + 1 < t.length; i++) {
        const a = t[i]!;
        const b = t[i + 1]!;
        if ((a.kind === 'word' || a.kind === 'particle') && (b.kind === 'word' || b.kind === 'particle')) joined.push(a.text + b.text);
      }
      const terms = t.filter((x) => x.kind === 'word' || x.kind === 'number').map((x) => x.text);
      return {
        scheme: form.scheme,
        tokens: t.map((x) => ({ text: x.text, kind: x.kind })),
        terms,
        phonetic: uniqueSorted(words.flatMap((w) => w.phonetic)),
        skeletons: uniqueSorted(words.map((w) => w.skeleton).filter((s) => s.length > 0)),
        joined: uniqueSorted(joined),
        trigrams: uniqueSorted(terms.flatMap((x) => trigrams(x))),
        legalForms: uniqueSorted(t.filter((x) => x.kind === 'legal').map((x) => x.legal ?? x.text)),
        numbers: t.filter((x) => x.kind === 'number').map((x) => x.text),
      };
    }),
  };
}
