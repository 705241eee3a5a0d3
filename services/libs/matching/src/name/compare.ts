import { LEGAL_FORM_PHRASES } from '../text/lexicon.js';
import { boundedEditDistance, collapseDoubles, jaroWinkler } from '../similarity.js';
import { wordFeatures, type NameForm, type NameToken, type TokenKind } from './analyze.js';

export type TokenMethod = 'exact' | 'equivalent' | 'transliterated' | 'phonetic' | 'fuzzy' | 'initial';

export type TokenSimilarity = { score: number; method: TokenMethod };

/** The knobs of token and name comparison; defaults in `DEFAULT_NAME_PARAMS`. */
export type NameParams = {
  /** Maximum edit distance for a fuzzy token match, whatever the token length. */
  levDistanceMax: number;
  /** Weight multiplier of a query token the list name lacks (an extra middle name). */
  extraQueryCost: number;
  /** Weight multiplier of a list token the query lacks (an omitted middle name: cheap). */
  missingListCost: number;
  /** Weight multiplier of a pair of tokens that contradict each other. */
  contradictionCost: number;
};

export const DEFAULT_NAME_PARAMS: NameParams = {
  levDistanceMax: 2,
  extraQueryCost: 0.5,
  missingListCost: 0.25,
  contradictionCost: 1,
};

const KIND_WEIGHT: Record<TokenKind, number> = {
  word: 1,
  number: 1.5,
  initial: 0.35,
  legal: 0.15,
  particle: 0.2,
  stop: 0.1,
  honorific: 0.05,
  prefix: 0,
};

/** Gives a token's informativeness in [0, 1] (1 = rare); the index supplies it from its vocabulary. */
export type Rarity = (text: string) => number;

const ABJAD = new Set(['Arab', 'Hebr']);

const LEGAL_FAMILY_OF_TEXT = new Map<string, string>();
for (const p of LEGAL_FORM_PHRASES) {
  const text = p.tokens.join('');
  if (!LEGAL_FAMILY_OF_TEXT.has(text)) LEGAL_FAMILY_OF_TEXT.set(text, p.family);
}

export function allowedEdits(maxLen: number, levDistanceMax: number): number {
  const byLength = maxLen <= 3 ? 0 : maxLen <= 5 ? 1 : maxLen <= 9 ? 2 : 3;
  return Math.min(byLength, levDistanceMax);
}

function skeletonSimilarity(a: string, b: string): number {
  if (a.length === 0 || b.length === 0) return 0;
  if (a === b) return a.length === 1 ? 0.8 : 0.9;
  const minLen = Math.min(a.length, b.length);
  if (minLen >= 3 && boundedEditDistance(a, b, 1) <= 1) return 0.8;
  return 0;
}

function phoneticAgree(a: readonly string[], b: readonly string[]): boolean {
  for (const x of a) for (const y of b) if (x === y && x.length > 0) return true;
  return false;
}

/**
 * How well two tokens agree, and by which rule. 0 means they contradict. Numbers must be
 * equal; legal forms agree by family; initials agree with any name of that letter;
 * words agree exactly, through the equivalence table, by consonant skeleton across an
 * abjad script, by bounded edit distance, or by Double Metaphone with a Jaro-Winkler floor.
 */
export function compareTokens(q: NameToken, c: NameToken, params: NameParams = DEFAULT_NAME_PARAMS): TokenSimilarity {
  const crossScript = q.script !== c.script;
  if (q.kind === 'number' || c.kind === 'number') {
    return q.kind === c.kind && q.text === c.text ? { score: 1, method: 'exact' } : { score: 0, method: 'exact' };
  }
  if (q.kind === 'legal' || c.kind === 'legal') {
    const fq = q.legal ?? LEGAL_FAMILY_OF_TEXT.get(q.text);
    const fc = c.legal ?? LEGAL_FAMILY_OF_TEXT.get(c.text);
    if (q.text === c.text) return { score: 1, method: 'exact' };
    if (fq !== undefined && fq === fc) return { score: 0.95, method: 'equivalent' };
    if (fq !== undefined && fc !== undefined) return { score: 0.3, method: 'equivalent' };
    return { score: 0, method: 'exact' };
  }
  if (q.text === c.text) return { score: 1, method: crossScript ? 'transliterated' : 'exact' };
  if (q.kind === 'initial' || c.kind === 'initial') {
    const [short, long] = q.text.length <= c.text.length ? [q.text, c.text] : [c.text, q.text];
    if (short.length === 1 && long.startsWith(short)) return { score: 0.9, method: 'initial' };
    return { score: 0, method: 'initial' };
  }
  if (q.group >= 0 && q.group === c.group) return { score: 0.95, method: crossScript ? 'transliterated' : 'equivalent' };
  let best: TokenSimilarity = { score: 0, method: 'fuzzy' };
  if (ABJAD.has(q.script) || ABJAD.has(c.script)) {
    const s = skeletonSimilarity(q.skeleton, c.skeleton);
    if (s > best.score) best = { score: s, method: 'transliterated' };
  }
  const maxLen = Math.max(q.text.length, c.text.length);
  const allowed = allowedEdits(maxLen, params.levDistanceMax);
  const jw = jaroWinkler(q.text, c.text);
  if (jw >= 0.7) {
    const d = boundedEditDistance(q.text, c.text, allowed);
    if (d <= allowed) {
      const collapsedEqual = d === 1 && collapseDoubles(q.text) === collapseDoubles(c.text);
      const s = collapsedEqual ? 0.95 : 0.5 * jw + 0.5 * (1 - d / maxLen);
      if (s > best.score) best = { score: s, method: crossScript ? 'transliterated' : 'fuzzy' };
    }
    if (phoneticAgree(q.phonetic, c.phonetic) && jw >= 0.75) {
      const s = d <= allowed ? 0.8 + 0.15 * jw : 0.7 + 0.15 * jw;
      if (s > best.score) best = { score: s, method: crossScript ? 'transliterated' : 'phonetic' };
    }
  }
  return best;
}

export type AlignedToken = {
  /** Query token(s); two when the query splits what the list joins ("Rami Makhlouf" ↔ "Ramimakhlouf"). */
  query: string[];
  /** List token(s) aligned with them; empty when the query token is unmatched. */
  list: string[];
  method: TokenMethod | 'unmatched' | 'contradicted';
  score: number;
  weight: number;
};

export type NameComparison = {
  score: number;
  tokens: AlignedToken[];
  /** List tokens the query did not use (omitted middle names, legal forms...). */
  unmatchedList: string[];
  /** Weighted agreement: how much distinctive name the two forms share. */
  evidence: number;
};

type Edge = { qi: number[]; ci: number[]; score: number; method: TokenMethod; order: number };

const JOINABLE: ReadonlySet<TokenKind> = new Set<TokenKind>(['word', 'particle', 'initial', 'stop']);

function joined(a: NameToken, b: NameToken): NameToken {
  const text = a.text + b.text;
  const f = wordFeatures(text);
  return { text, kind: 'word', script: a.script === b.script ? a.script : 'Latn', phonetic: f.phonetic, skeleton: f.skeleton, group: f.group };
}

function tokenWeight(t: NameToken, rarity: Rarity | undefined): number {
  const base = KIND_WEIGHT[t.kind];
  if (!rarity || (t.kind !== 'word' && t.kind !== 'initial')) return base;
  return base * (0.35 + 0.65 * rarity(t.text));
}

function isContent(kind: TokenKind): boolean {
  return kind === 'word' || kind === 'number' || kind === 'initial';
}

/**
 * Scores a query name form against a list name form in [0, 1]. Tokens are aligned
 * without regard to order (greedy on similarity, ties to the closest position), two
 * adjacent tokens may align with one joined token, and what is left over is priced
 * asymmetrically: a list token the query omits costs little, an extra query token
 * more, and a leftover pair that disagrees costs its full weight.
 */
export function compareNameForms(query: NameForm, list: NameForm, params: NameParams = DEFAULT_NAME_PARAMS, rarity?: Rarity): NameComparison {
  const q = query.tokens;
  const c = list.tokens;
  const edges: Edge[] = [];
  let order = 0;
  for (let i = 0; i < q.length; i++) {
    for (let j = 0; j < c.length; j++) {
      const sim = compareTokens(q[i]!, c[j]!, params);
      if (sim.score > 0) edges.push({ qi: [i], ci: [j], score: sim.score, method: sim.method, order: order++ });
    }
  }
  for (let i = 0; i + 1 < q.length; i++) {
    if (!JOINABLE.has(q[i]!.kind) || !JOINABLE.has(q[i + 1]!.kind)) continue;
    const len = q[i]!.text.length + q[i + 1]!.text.length;
    for (let j = 0; j < c.length; j++) {
      if (c[j]!.kind !== 'word' || Math.abs(c[j]!.text.length - len) > 2) continue;
      const sim = compareTokens(joined(q[i]!, q[i + 1]!), c[j]!, params);
      if (sim.score >= 0.8) edges.push({ qi: [i, i + 1], ci: [j], score: sim.score, method: sim.method, order: order++ });
    }
  }
  for (let j = 0; j + 1 < c.length; j++) {
    if (!JOINABLE.has(c[j]!.kind) || !JOINABLE.has(c[j + 1]!.kind)) continue;
    const len = c[j]!.text.length + c[j + 1]!.text.length;
    for (let i = 0; i < q.length; i++) {
      if (q[i]!.kind !== 'word' || Math.abs(q[i]!.text.length - len) > 2) continue;
      const sim = compareTokens(q[i]!, joined(c[j]!, c[j + 1]!), params);
      if (sim.score >= 0.8) edges.push({ qi: [i], ci: [j, j + 1], score: sim.score, method: sim.method, order: order++ });
    }
  }
  // Highest similarity first; a joined pair beats two weaker singles only on score;
  // ties go to the pair closest in relative position, then to input order.
  const rel = (e: Edge) => Math.abs(e.qi[0]! / Math.max(1, q.length) - e.ci[0]! / Math.max(1, c.length));
  edges.sort((a, b) => b.score - a.score || b.qi.length + b.ci.length - (a.qi.length + a.ci.length) || rel(a) - rel(b) || a.order - b.order);

  const usedQ = new Uint8Array(q.length);
  const usedC = new Uint8Array(c.length);
  const wq = q.map((t) => tokenWeight(t, rarity));
  const wc = c.map((t) => tokenWeight(t, rarity));
  const aligned: Array<AlignedToken & { first: number }> = [];
  let num = 0;
  let den = 0;
  for (const e of edges) {
    if (e.qi.some((i) => usedQ[i]) || e.ci.some((j) => usedC[j])) continue;
    for (const i of e.qi) usedQ[i] = 1;
    for (const j of e.ci) usedC[j] = 1;
    const weightQ = e.qi.reduce((s, i) => s + wq[i]!, 0);
    const weightC = e.ci.reduce((s, j) => s + wc[j]!, 0);
    const w = (weightQ + weightC) / 2;
    num += w * e.score;
    den += w;
    aligned.push({ first: e.qi[0]!, query: e.qi.map((i) => q[i]!.text), list: e.ci.map((j) => c[j]!.text), method: e.method, score: round4(e.score), weight: round4(w) });
  }
  const leftQ: number[] = [];
  const leftC: number[] = [];
  for (let i = 0; i < q.length; i++) if (!usedQ[i]) leftQ.push(i);
  for (let j = 0; j < c.length; j++) if (!usedC[j]) leftC.push(j);
  const contentQ = leftQ.filter((i) => isContent(q[i]!.kind)).sort((a, b) => wq[b]! - wq[a]! || a - b);
  const contentC = leftC.filter((j) => isContent(c[j]!.kind)).sort((a, b) => wc[b]! - wc[a]! || a - b);
  const pairs = Math.min(contentQ.length, contentC.length);
  const contradictedC = new Set<number>();
  for (let k = 0; k < pairs; k++) {
    const i = contentQ[k]!;
    const j = contentC[k]!;
    contradictedC.add(j);
    const numbers = q[i]!.kind === 'number' || c[j]!.kind === 'number' ? 2 : 1;
    const w = ((wq[i]! + wc[j]!) / 2) * params.contradictionCost * numbers;
    den += w;
    aligned.push({ first: i, query: [q[i]!.text], list: [c[j]!.text], method: 'contradicted', score: 0, weight: round4(w) });
  }
  const contradictedQ = new Set(contentQ.slice(0, pairs));
  for (const i of leftQ) {
    if (contradictedQ.has(i)) continue;
    const w = wq[i]! * (q[i]!.kind === 'number' ? 1 : params.extraQueryCost);
    den += w;
    aligned.push({ first: i, query: [q[i]!.text], list: [], method: 'unmatched', score: 0, weight: round4(w) });
  }
  const unmatchedList: string[] = [];
  for (const j of leftC) {
    if (contradictedC.has(j)) continue;
    den += wc[j]! * (c[j]!.kind === 'number' ? 1 : params.missingListCost);
    unmatchedList.push(c[j]!.text);
  }
  aligned.sort((a, b) => a.first - b.first);
  const score = den > 0 ? num / den : 0;
  return { score, tokens: aligned.map(({ first: _first, ...t }) => t), unmatchedList, evidence: num };
}

export function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}
