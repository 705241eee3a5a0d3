import { coarseSkeleton } from '../text/abjad.js';
import { groupHasSkeleton } from '../text/equivalents.js';
import { LEGAL_FORM_PHRASES } from '../text/lexicon.js';
import { boundedEditDistance, collapseDoubles, jaroWinkler, jaroWinklerBelow } from '../similarity.js';
import {
  V1_POLICY,
  type AlignmentPolicy,
  type MatchPolicy,
  type TokenMethod,
  type TokenScores,
  type TokenSimilarity,
} from '../policy.js';
import { isAbjad, isSyllabic, type Script } from '../text/scripts.js';
import { isLooseScript, looseSimilarity } from '../text/loose.js';
import { consonantClash } from '../text/sounds.js';
import { syllableSimilarity } from '../text/syllables.js';
import { isJoinable, joinTokens, type NameForm, type NameToken, type TokenKind } from './analyze.js';

export type { TokenMethod, TokenSimilarity } from '../policy.js';

const EXACT: TokenSimilarity = { score: 1, method: 'exact' };
const NO_MATCH: TokenSimilarity = { score: 0, method: 'exact' };
const NO_INITIAL: TokenSimilarity = { score: 0, method: 'initial' };
const NO_FUZZY: TokenSimilarity = { score: 0, method: 'fuzzy' };

/** What token and name comparison run with: the algorithm's policy and the index's edit-distance cap. */
export type NameParams = {
  /** Maximum edit distance for a fuzzy token match, whatever the token length (LEV_DISTANCE_MAX). */
  levDistanceMax: number;
  policy: MatchPolicy;
};

/** vigil-v1's policy: what comparisons given no params have always used. */
export const DEFAULT_NAME_PARAMS: NameParams = { levDistanceMax: 2, policy: V1_POLICY };

/** Gives a token's informativeness in [0, 1] (1 = rare); the index supplies it from its vocabulary. */
export type Rarity = (text: string) => number;

// Plain comparisons rather than Set lookups: compareTokens runs for every new token pair.
function isWeakKind(kind: TokenKind): boolean {
  return kind === 'particle' || kind === 'stop' || kind === 'honorific' || kind === 'prefix';
}

const LEGAL_FAMILY_OF_TEXT = new Map<string, string>();
for (const p of LEGAL_FORM_PHRASES) {
  const text = p.tokens.join('');
  if (!LEGAL_FAMILY_OF_TEXT.has(text)) LEGAL_FAMILY_OF_TEXT.set(text, p.family);
}

export function isLegalFormText(text: string): boolean {
  return LEGAL_FAMILY_OF_TEXT.has(text);
}

/** Score of a token pair one edit beyond the fuzzy budget (every version's: policy tokens.uncertain). */
export const UNCERTAIN_SCORE = V1_POLICY.tokens.uncertain;

/** How many edits a fuzzy match of tokens up to maxLen long may take: by length (policy bounds), capped by levDistanceMax. */
export function allowedEdits(
  maxLen: number,
  levDistanceMax: number,
  bounds: readonly [number, number, number] = V1_POLICY.tokens.editBudgetBounds,
): number {
  const byLength = maxLen <= bounds[0] ? 0 : maxLen <= bounds[1] ? 1 : maxLen <= bounds[2] ? 2 : 3;
  return Math.min(byLength, levDistanceMax);
}

function skeletonSimilarity(a: string, b: string, scores: TokenScores['skeleton']): number {
  if (a.length === 0 || b.length === 0) return 0;
  if (a === b) return a.length === 1 ? scores.sameLetter : scores.same;
  const minLen = Math.min(a.length, b.length);
  if (minLen >= 2 && coarseSkeleton(a) === coarseSkeleton(b)) return scores.coarse;
  if (minLen >= 4 && boundedEditDistance(a, b, 1) <= 1) return scores.oneEdit;
  return 0;
}

function phoneticAgree(a: readonly string[], b: readonly string[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (x.length === 0) continue;
    for (let j = 0; j < b.length; j++) if (x === b[j]) return true;
  }
  return false;
}

/**
 * How well two tokens agree, and by which rule of the policy's token scores. 0 means they
 * contradict. Numbers must be equal; legal forms agree by family; initials agree with any name
 * of that letter; words agree exactly, through the equivalence table, by consonant skeleton
 * across an abjad script, by bounded edit distance, or by Double Metaphone with a Jaro-Winkler floor.
 */
export function compareTokens(q: NameToken, c: NameToken, params: NameParams = DEFAULT_NAME_PARAMS): TokenSimilarity {
  const ts = params.policy.tokens;
  const bounds = ts.editBudgetBounds;
  const crossScript = q.script !== c.script;
  if (q.kind === 'number' || c.kind === 'number') {
    return q.kind === c.kind && q.text === c.text ? EXACT : NO_MATCH;
  }
  if (q.kind === 'legal' || c.kind === 'legal') {
    const fq = q.legal ?? LEGAL_FAMILY_OF_TEXT.get(q.text);
    const fc = c.legal ?? LEGAL_FAMILY_OF_TEXT.get(c.text);
    if (q.text === c.text) return EXACT;
    if (fq !== undefined && fq === fc) return ts.equivalent;
    if (fq !== undefined && fc !== undefined) return ts.otherLegalFamily;
    // a misspelt legal form ("Companny", "Foundatkion") is still that legal form
    const maxLen = Math.max(q.text.length, c.text.length);
    const d = boundedEditDistance(q.text, c.text, allowedEdits(maxLen, params.levDistanceMax, bounds));
    if (d <= allowedEdits(maxLen, params.levDistanceMax, bounds)) return ts.misspeltLegalForm;
    return NO_MATCH;
  }
  if (q.text === c.text) return { score: 1, method: crossScript ? 'transliterated' : 'exact' };
  const syllable = ts.syllable;
  if (syllable !== null && crossScript && isSyllabic(q.script) !== isSyllabic(c.script)) {
    // v2: a Han or Hangul syllable against a Latin word: whole or not at all (text/syllables.ts)
    if (q.kind === 'initial' || c.kind === 'initial' || isWeakKind(q.kind) || isWeakKind(c.kind)) return NO_MATCH;
    const s = syllableSimilarity(q.text, q.group, c.text, c.group, syllable);
    return s > 0 ? { score: s, method: 'transliterated' } : NO_MATCH;
  }
  // a particle or title is what it is: "al" is not a misspelt "Ali"
  if (isWeakKind(q.kind) || isWeakKind(c.kind)) {
    return q.group >= 0 && q.group === c.group ? ts.equivalent : NO_MATCH;
  }
  if (q.kind === 'initial' || c.kind === 'initial') {
    const [short, long] = q.text.length <= c.text.length ? [q.text, c.text] : [c.text, q.text];
    if (short.length === 1 && long.startsWith(short)) return ts.initial;
    return NO_INITIAL;
  }
  if (q.group >= 0 && q.group === c.group)
    return { score: ts.variant, method: crossScript ? 'transliterated' : 'equivalent' };
  let best = NO_FUZZY;
  if (isAbjad(q.script) || isAbjad(c.script)) {
    let s = skeletonSimilarity(q.skeleton, c.skeleton, ts.skeleton);
    if (s < ts.skeleton.same && (q.skeleton2 || c.skeleton2))
      s = Math.max(s, skeletonSimilarity(q.skeleton2 ?? q.skeleton, c.skeleton2 ?? c.skeleton, ts.skeleton));
    // the other side's spelling variants (Faycal is Faisal): meet them by skeleton
    const [abjad, latin] = isAbjad(q.script) ? [q, c] : [c, q];
    if (
      s < ts.variantSkeleton &&
      latin.group >= 0 &&
      abjad.skeleton.length >= 2 &&
      groupHasSkeleton(latin.group, abjad.skeleton)
    )
      s = ts.variantSkeleton;
    if (s > best.score) best = { score: s, method: 'transliterated' };
  }
  const loose = ts.looseKey;
  if (loose !== null && crossScript && (isLooseScript(q.script) || isLooseScript(c.script))) {
    const s = looseSimilarity(q.text, c.text, loose);
    if (s > best.score) best = { score: s, method: 'transliterated' };
  }
  const maxLen = Math.max(q.text.length, c.text.length);
  const allowed = allowedEdits(maxLen, params.levDistanceMax, bounds);
  // v2: a three-letter word with one letter mistyped after the first ("Som" for "Son") is
  // evidence, where v1 allows no edit at all; not between two different known names
  const shortTypo = ts.shortTypo;
  if (shortTypo !== null && maxLen === 3 && q.text.length === 3 && c.text.length === 3 && best.score < shortTypo) {
    if (
      q.text.charCodeAt(0) === c.text.charCodeAt(0) &&
      (q.text.charCodeAt(1) === c.text.charCodeAt(1)) !== (q.text.charCodeAt(2) === c.text.charCodeAt(2)) &&
      !(q.group >= 0 && c.group >= 0 && q.group !== c.group)
    ) {
      best = { score: shortTypo, method: 'fuzzy' };
    }
  }
  // nothing below needs a Jaro-Winkler under the floor, and most token pairs of a query are unrelated
  if (jaroWinklerBelow(q.text, c.text, ts.jaroWinklerFloor)) return best;
  // the length gap bounds the edit distance: too far for any edit rule and no shared sound, no match
  if (Math.abs(q.text.length - c.text.length) > allowed + 1 && !phoneticAgree(q.phonetic, c.phonetic)) return best;
  const jw = jaroWinkler(q.text, c.text);
  if (jw >= ts.jaroWinklerFloor) {
    const d = boundedEditDistance(q.text, c.text, allowed);
    // a differing first letter is rarer as a typo than as a different name
    const firstLetter = q.text.charCodeAt(0) === c.text.charCodeAt(0) ? 1 : ts.otherFirstLetter;
    // v2: short words that differ in their first consonant are different names (Kalam, Salam), not typos
    const clashMax = ts.consonantClashMaxLength;
    if (clashMax !== null && !crossScript && firstLetter !== 1 && maxLen <= clashMax && consonantClash(q.text, c.text))
      return best;
    if (d <= allowed && jw >= ts.fuzzyMinJaroWinkler) {
      const collapsedEqual = d === 1 && collapseDoubles(q.text) === collapseDoubles(c.text);
      const s = collapsedEqual ? ts.doubledLetter : (0.5 * jw + 0.5 * (1 - d / maxLen)) * firstLetter;
      if (s > best.score) best = { score: s, method: crossScript ? 'transliterated' : 'fuzzy' };
    }
    const ph = ts.phonetic;
    if (phoneticAgree(q.phonetic, c.phonetic) && (d <= allowed || jw >= ph.beyondMinJaroWinkler)) {
      const s = ((d <= allowed ? ph.withinBudget : ph.beyondBudget) + ph.jwShare * jw) * firstLetter;
      if (s > best.score) best = { score: s, method: crossScript ? 'transliterated' : 'phonetic' };
    }
    // One edit past the budget with the same first letter: too close to call a
    // contradiction (a doubly mistyped name), too far to call a match.
    if (
      best.score === 0 &&
      firstLetter === 1 &&
      maxLen >= 4 &&
      boundedEditDistance(q.text, c.text, allowed + 1) <= allowed + 1
    ) {
      best = { score: ts.uncertain, method: 'fuzzy' };
    }
  }
  return best;
}

export type AlignedToken = {
  /** Query token(s); two when the query splits what the list joins ("Rami Makhlouf" ↔ "Ramimakhlouf"). */
  query: string[];
  /** List token(s) aligned with them; empty when the query token is unmatched. */
  list: string[];
  /** extra (v3): a query word beside a list name the query wholly holds, priced apart (the extraTokens qualifier). */
  method: TokenMethod | 'unmatched' | 'contradicted' | 'extra';
  score: number;
  weight: number;
  /** v2, transliterated pairs: the scripts the query and list tokens were written in. */
  scripts?: [Script, Script];
};

export type NameComparison = {
  score: number;
  tokens: AlignedToken[];
  /** List tokens the query did not use (omitted middle names, legal forms...). */
  unmatchedList: string[];
  /** Weighted agreement: how much distinctive name the two forms share. */
  evidence: number;
  /** v2: content tokens matched as the same word (exact, known variant, transliteration) and only approximately (spelling, sound). */
  sure?: number;
  approx?: number;
  /** v2: the list name has a family name and the query has none of it. */
  familyMissing?: boolean;
  /**
   * v3: the query holds the whole list name (containment, see listFullyPresent) and this many query
   * words beside it, which the score leaves out: scoring prices each with a small explained
   * penalty. -1: the query does not hold the list name so.
   */
  extras?: number;
};

/**
 * Similarities by (query token slot, list token key id): open addressing on an Int32Array,
 * a few hundred entries per query, where a Map per query token hashed every lookup anew.
 * Entries are never evicted, so the first comparison of a pair is the one every later
 * lookup sees, as with a Map.
 */
class PairMemo {
  /** cell h is keys[2h] (the slot plus one; 0 marks an empty cell) and keys[2h + 1] (the id): one buffer, and a probe reads one cache line */
  private keys = new Int32Array(2 * 512);
  private sims: Array<TokenSimilarity | undefined> = new Array<TokenSimilarity | undefined>(512);
  private size = 0;

  private find(slot: number, id: number): number {
    const keys = this.keys;
    const mask = this.sims.length - 1;
    let h = (Math.imul(slot + 1, 0x9e3779b1) ^ Math.imul(id, 0x85ebca6b)) >>> 0;
    h = (h ^ (h >>> 15)) & mask;
    while (keys[2 * h] !== 0 && (keys[2 * h] !== slot + 1 || keys[2 * h + 1] !== id)) h = (h + 1) & mask;
    return h;
  }

  get(slot: number, id: number): TokenSimilarity | undefined {
    const h = this.find(slot, id);
    return this.keys[2 * h] === 0 ? undefined : this.sims[h];
  }

  set(slot: number, id: number, sim: TokenSimilarity): void {
    if (2 * (this.size + 1) > this.sims.length) this.grow();
    const h = this.find(slot, id);
    if (this.keys[2 * h] === 0) this.size++;
    this.keys[2 * h] = slot + 1;
    this.keys[2 * h + 1] = id;
    this.sims[h] = sim;
  }

  private grow(): void {
    const { keys, sims } = this;
    const capacity = sims.length * 2;
    this.keys = new Int32Array(2 * capacity);
    this.sims = new Array<TokenSimilarity | undefined>(capacity);
    this.size = 0;
    for (let h = 0; h < sims.length; h++) if (keys[2 * h] !== 0) this.set(keys[2 * h]! - 1, keys[2 * h + 1]!, sims[h]!);
  }
}

/** What a context remembers about one query form. */
type QueryFormMemo = {
  runs: JoinedRun[];
  /** the context's pair memo, and the slots of this form's tokens, then of its joined runs, in it */
  pairs: PairMemo;
  slots: Int32Array;
  /** score-only comparisons by list-form key: the lists repeat one another's names */
  forms: Map<number, NameComparison>;
  weights: Float64Array;
  weightsParams: NameParams;
  weightsRarity: Rarity | undefined;
};

/**
 * Per-query memo of comparisons. Aliases of one entity and the candidates of one query
 * share most list tokens, so each (query token, list token key) pair is compared once, and
 * each (query form, list form key) is scored once.
 */
export type CompareContext = {
  queries: Map<NameForm, QueryFormMemo>;
  pairs: PairMemo;
  /**
   * Pair memo slots by what compareTokens reads of a query token: a query read several ways
   * (a national transcription beside the name as written) repeats most of its tokens, whose
   * comparisons with a list token are then made once.
   */
  slots: Map<string, number>;
  /** the query form compared last: an entity's list forms are compared in a row */
  lastForm: NameForm | undefined;
  lastMemo: QueryFormMemo | undefined;
  /** where the query's alignments are worked out: an index passes its own, reused by every query */
  scratch: AlignScratch;
};

export function newCompareContext(scratch: AlignScratch = new AlignScratch()): CompareContext {
  return {
    queries: new Map(),
    pairs: new PairMemo(),
    slots: new Map(),
    lastForm: undefined,
    lastMemo: undefined,
    scratch,
  };
}

/** Every field of a query token compareTokens reads: tokens alike in these compare alike. */
function comparedAs(t: NameToken): string {
  return `${t.kind}\u0001${t.script}\u0001${t.text}\u0001${t.legal ?? ''}\u0001${t.group}\u0001${t.skeleton}\u0001${t.skeleton2 ?? ''}\u0001${t.phonetic.join('\u0002')}`;
}

function querySlots(ctx: CompareContext, tokens: readonly NameToken[], runs: readonly JoinedRun[]): Int32Array {
  const slots = new Int32Array(tokens.length + runs.length);
  for (let k = 0; k < slots.length; k++) {
    const key = comparedAs(k < tokens.length ? tokens[k]! : runs[k - tokens.length]!.token);
    let slot = ctx.slots.get(key);
    if (slot === undefined) {
      slot = ctx.slots.size;
      ctx.slots.set(key, slot);
    }
    slots[k] = slot;
  }
  return slots;
}

function queryMemo(ctx: CompareContext, form: NameForm, params: NameParams, rarity: Rarity | undefined): QueryFormMemo {
  let memo = ctx.lastForm === form ? ctx.lastMemo : ctx.queries.get(form);
  if (!memo) {
    const runs = joinedRuns(form, false);
    memo = {
      runs,
      pairs: ctx.pairs,
      slots: querySlots(ctx, form.tokens, runs),
      forms: new Map(),
      weights: tokenWeights(form.tokens, rarity, params),
      weightsParams: params,
      weightsRarity: rarity,
    };
    ctx.queries.set(form, memo);
  } else if (memo.weightsParams !== params || memo.weightsRarity !== rarity) {
    memo.weights = tokenWeights(form.tokens, rarity, params);
    memo.weightsParams = params;
    memo.weightsRarity = rarity;
  }
  ctx.lastForm = form;
  ctx.lastMemo = memo;
  return memo;
}

/**
 * Scoring's memo of a list form, made on its first comparison (list forms live as long as
 * the index): its comparison key and, in one array of numbers, the key id and weight of
 * each token and its joined runs. A plain array of doubles sits on the heap next to the
 * plan, where typed arrays would each keep their data elsewhere: a comparison that finds
 * its token pairs memoised reads one block instead of every token object.
 */
export type FormPlan = {
  /** everything about the tokens that scoring reads, as an interned id: equal keys, equal ids */
  key: number;
  /** n token key ids, n token weights, then RUN_FIELDS numbers per joined run */
  data: number[];
  runTokens: NameToken[];
  weightsParams: NameParams;
  weightsRarity: Rarity | undefined;
};

/** A joined run in a plan: first token, token count, text length, abjad (1/0), key id. */
const RUN_FIELDS = 5;

function listPlan(form: NameForm, params: NameParams, rarity: Rarity | undefined): FormPlan {
  let plan = form.plan;
  if (plan === undefined) {
    const tokens = form.tokens;
    const runs = joinedRuns(form, true);
    const data: number[] = [];
    for (const t of tokens) data.push(tokenId(t));
    for (const t of tokens) data.push(tokenWeight(t, rarity, params));
    for (const run of runs) data.push(run.idx[0]!, run.idx.length, run.length, run.abjad ? 1 : 0, run.id);
    plan = {
      key: formKeyId(
        tokens
          .map(
            (t) =>
              `${tokenKey(t)}\u0002${t.family ? 1 : 0}${t.generic ? 1 : 0}${t.bothWays ? 1 : 0}${t.compound ? 1 : 0}${t.skeleton}\u0002${t.skeleton2 ?? ''}\u0002${t.rarity ?? ''}`,
          )
          .join('\u0003'),
      ),
      data,
      runTokens: runs.map((run) => run.token),
      weightsParams: params,
      weightsRarity: rarity,
    };
    form.plan = plan;
    form.key = plan.key;
  } else if (plan.weightsParams !== params || plan.weightsRarity !== rarity) {
    const tokens = form.tokens;
    for (let j = 0; j < tokens.length; j++) plan.data[tokens.length + j] = tokenWeight(tokens[j]!, rarity, params);
    plan.weightsParams = params;
    plan.weightsRarity = rarity;
  }
  return plan;
}

function tokenWeights(tokens: readonly NameToken[], rarity: Rarity | undefined, params: NameParams): Float64Array {
  const w = new Float64Array(tokens.length);
  for (let i = 0; i < tokens.length; i++) w[i] = tokenWeight(tokens[i]!, rarity, params);
  return w;
}

/** A joined run's token, its key id (list runs only, -1 on the query side) and whether it is abjad script. */
type JoinedRun = { idx: number[]; token: NameToken; length: number; id: number; abjad: boolean };

/**
 * How similar a joined run must be to the single token it replaces: a sound-alike beyond
 * the edit budget is not enough ("Ivan Novak" is not "Ivanovic"), except across an abjad
 * script, where skeleton classes are all there is.
 */
function joinFloor(runAbjad: boolean, other: NameToken, floor: AlignmentPolicy['joinFloor']): number {
  return runAbjad || isAbjad(other.script) ? floor.abjad : floor.other;
}

/** Whether a joined run and a single token are close enough in length to be one name; abjad text lacks its short vowels. */
function lengthsCompatible(runLength: number, runAbjad: boolean, other: NameToken): boolean {
  const abjadOther = isAbjad(other.script);
  const otherLen = other.text.length;
  if (runAbjad === abjadOther) return Math.abs(otherLen - runLength) <= 2;
  const gap = runAbjad ? otherLen - runLength : runLength - otherLen;
  return gap >= -2 && gap <= 8;
}

function tokenKey(t: NameToken): string {
  if (t.key === undefined)
    t.key =
      t.kind === 'word' && t.script === 'Latn'
        ? t.text
        : `${t.text}\u0001${t.kind}\u0001${t.script}\u0001${t.legal ?? ''}`;
  return t.key;
}

// List form comparison keys as small integers: a memo lookup then hashes a number instead of
// reading a long string. Keys include the rarities of the index that planned them, so each
// rebuild of an index brings new ones: the table is bounded, and cleared when full. Ids are
// never reused, so equal ids still mean equal keys; a key seen again after a clear gets a
// new id, which only costs memo hits between forms planned before and after it.
const FORM_KEY_IDS = new Map<string, number>();
const FORM_KEY_IDS_MAX = 500_000;
let nextFormKeyId = 0;

function formKeyId(key: string): number {
  let id = FORM_KEY_IDS.get(key);
  if (id === undefined) {
    if (FORM_KEY_IDS.size >= FORM_KEY_IDS_MAX) FORM_KEY_IDS.clear();
    id = nextFormKeyId++;
    FORM_KEY_IDS.set(key, id);
  }
  return id;
}

// Token keys as small integers, so the per-query pair memo hashes a number rather than a
// string it would first have to fetch. Only list tokens get ids; the lists bound the table.
const TOKEN_IDS = new Map<string, number>();

function tokenId(t: NameToken): number {
  const key = tokenKey(t);
  let id = TOKEN_IDS.get(key);
  if (id === undefined) {
    id = TOKEN_IDS.size;
    TOKEN_IDS.set(key, id);
  }
  return id;
}

function cachedCompare(
  pairs: PairMemo | undefined,
  slot: number,
  q: NameToken,
  c: NameToken,
  cId: number,
  params: NameParams,
): TokenSimilarity {
  if (!pairs) return compareTokens(q, c, params);
  let sim = pairs.get(slot, cId);
  if (!sim) {
    sim = compareTokens(q, c, params);
    pairs.set(slot, cId, sim);
  }
  return sim;
}

function joinedRuns(form: NameForm, keyed: boolean): JoinedRun[] {
  const from = form.tokens;
  const out: JoinedRun[] = [];
  for (let i = 0; i + 1 < from.length; i++) {
    for (let k = 2; k <= 3 && i + k <= from.length; k++) {
      const run = from.slice(i, i + k);
      if (!run.every((t) => isJoinable(t.kind))) break;
      const token = joinTokens(run);
      out.push({
        idx: run.map((_, x) => i + x),
        token,
        length: run.reduce((s, t) => s + t.text.length, 0),
        id: keyed ? tokenId(token) : -1,
        abjad: isAbjad(token.script),
      });
    }
  }
  return out;
}

/** A candidate alignment: query tokens [qs, qs+qn) with list tokens [cs, cs+cn). */
type Edge = {
  qs: number;
  qn: number;
  cs: number;
  cn: number;
  score: number;
  method: TokenMethod;
  order: number;
  rel: number;
  initial: boolean;
};

function compareEdges(a: Edge, b: Edge): number {
  return b.score - a.score || b.qn + b.cn - (a.qn + a.cn) || a.rel - b.rel || a.order - b.order;
}

// The arrays sorted per comparison hold a handful of items, where an insertion sort beats
// Array.prototype.sort; both comparators are total orders, so the result is the same.
const INSERTION_SORT_MAX = 24;

/** Sorts the first `length` items. */
function sortSmall<T>(items: T[], length: number, cmp: (a: T, b: T) => number): void {
  if (length > INSERTION_SORT_MAX) {
    const sorted = items.slice(0, length).sort(cmp);
    for (let i = 0; i < length; i++) items[i] = sorted[i]!;
    return;
  }
  for (let i = 1; i < length; i++) {
    const x = items[i]!;
    let j = i - 1;
    while (j >= 0 && cmp(items[j]!, x) > 0) {
      items[j + 1] = items[j]!;
      j--;
    }
    items[j + 1] = x;
  }
}

/** The first `length` token indexes by weight (weights[offset + index]), heaviest first, then by position. */
function sortByWeight(indexes: Int32Array, length: number, weights: ArrayLike<number>, offset: number): void {
  if (length > INSERTION_SORT_MAX) {
    indexes.set(
      Array.from(indexes.subarray(0, length)).sort((a, b) => weights[offset + b]! - weights[offset + a]! || a - b),
    );
    return;
  }
  for (let i = 1; i < length; i++) {
    const x = indexes[i]!;
    const wx = weights[offset + x]!;
    let j = i - 1;
    while (j >= 0) {
      const y = indexes[j]!;
      const wy = weights[offset + y]!;
      if (wy > wx || (wy === wx && y < x)) break;
      indexes[j + 1] = y;
      j--;
    }
    indexes[j + 1] = x;
  }
}

export function tokenWeight(
  t: NameToken,
  rarity: Rarity | undefined,
  params: NameParams = DEFAULT_NAME_PARAMS,
): number {
  const ap = params.policy.alignment;
  let base = ap.kindWeight[t.kind];
  if (t.kind === 'word') {
    if (t.generic || t.text.length === 1) base = ap.weakWordWeight;
    if (t.family) base *= ap.familyWeight;
  }
  if (t.kind !== 'word' && t.kind !== 'initial') return base;
  const r = t.rarity ?? (rarity ? rarity(t.text) : undefined);
  return r === undefined ? base : base * (ap.rarityFloor + (1 - ap.rarityFloor) * r);
}

/** How much identity a matched query token proves: its rarity, nothing for weak kinds. */
function evidenceWeight(t: NameToken, rarity: Rarity | undefined, ev: AlignmentPolicy['evidence']): number {
  if (t.kind === 'number') return ev.number;
  if (t.kind !== 'word') return t.kind === 'initial' ? ev.initial : ev.weakKind;
  const base = t.generic || t.text.length === 1 ? ev.weakWord : 1;
  const r = t.rarity ?? (rarity ? rarity(t.text) : undefined);
  return r === undefined ? base : base * (ev.rarityFloor + (1 - ev.rarityFloor) * r);
}

function isContent(kind: TokenKind): boolean {
  return kind === 'word' || kind === 'number';
}

/**
 * Scores a query name form against a list name form in [0, 1]. Tokens are aligned
 * without regard to order (greedy on similarity, ties to the closest position); up to
 * three adjacent tokens may align with one joined token ("Husamaldin" ↔ "Husam al-Din"),
 * and a misspelt multi-word legal form with its phrase. What is left over is priced
 * asymmetrically: a list token the query omits costs little (a family name more), an
 * extra query token more, and a leftover pair of words that disagree costs double.
 * Initials are matched last, so "Joel" is not excused by the list's middle initial "J"
 * while "Jorge" stays unexplained.
 */
export function compareNameForms(
  query: NameForm,
  list: NameForm,
  params: NameParams = DEFAULT_NAME_PARAMS,
  rarity?: Rarity,
  ctx?: CompareContext,
  /** false: score only, no per-token explanation (the hot path explains only the winners) */
  explain = true,
  /** without a context: the scratch to align in (one per call when absent) */
  scratch?: AlignScratch,
): NameComparison {
  const memo = ctx ? queryMemo(ctx, query, params, rarity) : undefined;
  const work = ctx ? ctx.scratch : (scratch ?? new AlignScratch());
  if (!explain && memo) {
    // a list form compared before has its key on the form: a memoised result needs neither
    // its plan nor its weights, so the plan is only read (and its weights refreshed) on a miss
    const key = list.key ?? listPlan(list, params, rarity).key;
    const hit = memo.forms.get(key);
    if (hit) return hit;
    const fresh = alignForms(query, list, params, rarity, memo, listPlan(list, params, rarity), false, work);
    memo.forms.set(key, fresh);
    return fresh;
  }
  return alignForms(query, list, params, rarity, memo, listPlan(list, params, rarity), explain, work);
}

/**
 * The edges of the comparison in progress. alignForms never re-enters, so one list serves
 * every call its scratch is passed to, and its edge objects are overwritten rather than
 * allocated anew: a query aligns a few hundred form pairs, most with a handful of edges.
 */
class EdgeList {
  readonly items: Edge[] = [];
  length = 0;

  push(
    qs: number,
    qn: number,
    cs: number,
    cn: number,
    score: number,
    method: TokenMethod,
    qDen: number,
    cDen: number,
  ): void {
    const order = this.length++;
    const rel = Math.abs(qs / qDen - cs / cDen);
    const initial = method === 'initial';
    const e = this.items[order];
    if (e === undefined) {
      this.items.push({ qs, qn, cs, cn, score, method, order, rel, initial });
      return;
    }
    e.qs = qs;
    e.qn = qn;
    e.cs = cs;
    e.cn = cn;
    e.score = score;
    e.method = method;
    e.order = order;
    e.rel = rel;
    e.initial = initial;
  }
}

/** Names up to this many tokens align in a scratch's arrays; longer names get their own. */
const SCRATCH_TOKENS = 64;

/**
 * The working memory of one alignment at a time (alignForms never re-enters itself): whoever
 * owns one (an index, for every query it screens; a caller without a context, for one call)
 * passes it in through a CompareContext, so nothing of a comparison in progress is module state.
 */
export class AlignScratch {
  readonly edges = new EdgeList();
  readonly usedQ = new Uint8Array(SCRATCH_TOKENS);
  readonly usedC = new Uint8Array(SCRATCH_TOKENS);
  readonly contentQ = new Int32Array(SCRATCH_TOKENS);
  readonly contentC = new Int32Array(SCRATCH_TOKENS);
}

function alignForms(
  query: NameForm,
  list: NameForm,
  params: NameParams,
  rarity: Rarity | undefined,
  memo: QueryFormMemo | undefined,
  plan: FormPlan,
  explain: boolean,
  scratch: AlignScratch,
): NameComparison {
  const q = query.tokens;
  const c = list.tokens;
  const nq = q.length;
  const nc = c.length;
  const edges = scratch.edges;
  edges.length = 0;
  const qDen = Math.max(1, nq);
  const cDen = Math.max(1, nc);
  const data = plan.data;
  const pairs = memo?.pairs;
  const slots = memo?.slots;
  const ap = params.policy.alignment;
  const specificity = ap.specificity;
  const v2 = specificity !== null;
  const containment = ap.containment;
  const joinFloors = ap.joinFloor;
  const explainScripts = params.policy.explainReadings;
  for (let i = 0; i < nq; i++) {
    const qt = q[i]!;
    for (let j = 0; j < nc; j++) {
      const sim = cachedCompare(pairs, slots ? slots[i]! : 0, qt, c[j]!, data[j]!, params);
      if (sim.score > 0) edges.push(i, 1, j, 1, sim.score, sim.method, qDen, cDen);
    }
  }
  // joined tokens on either side: 2 or 3 adjacent joinable tokens against one word
  const queryRuns = memo ? memo.runs : joinedRuns(query, false);
  for (let r = 0; r < queryRuns.length; r++) {
    const run = queryRuns[r]!;
    for (let j = 0; j < nc; j++) {
      const other = c[j]!;
      if (other.kind !== 'word' || !lengthsCompatible(run.length, run.abjad, other)) continue;
      const sim = cachedCompare(pairs, slots ? slots[nq + r]! : 0, run.token, other, data[j]!, params);
      if (
        sim.score >= joinFloor(run.abjad, other, joinFloors) &&
        (v2 === false || joinAllowed(sim) || other.bothWays === true)
      )
        edges.push(run.idx[0]!, run.idx.length, j, 1, sim.score, sim.method, qDen, cDen);
    }
  }
  for (let r = 0, at = 2 * nc; at < data.length; r++, at += RUN_FIELDS) {
    const runLength = data[at + 2]!;
    const runAbjad = data[at + 3] === 1;
    for (let i = 0; i < nq; i++) {
      const other = q[i]!;
      if (other.kind !== 'word' || !lengthsCompatible(runLength, runAbjad, other)) continue;
      const sim = cachedCompare(pairs, slots ? slots[i]! : 0, other, plan.runTokens[r]!, data[at + 4]!, params);
      if (
        sim.score >= joinFloor(runAbjad, other, joinFloors) &&
        (v2 === false || joinAllowed(sim) || runWrittenBothWays(c, data[at]!, data[at + 1]!))
      )
        edges.push(i, 1, data[at]!, data[at + 1]!, sim.score, sim.method, qDen, cDen);
    }
  }
  // a legal form on one side against the words of a misspelt phrase on the other
  for (let side = 0; side < 2; side++) {
    const legalIsQuery = side === 1;
    const legalSide = legalIsQuery ? q : c;
    const words = legalIsQuery ? c : q;
    for (let j = 0; j < legalSide.length; j++) {
      const legal = legalSide[j]!;
      if (legal.kind !== 'legal' || legal.text.length < 6) continue;
      for (let i = 0; i < words.length; i++) {
        let text = '';
        for (let k = 0; k < 5 && i + k < words.length; k++) {
          const w = words[i + k]!;
          if (w.kind === 'number') break;
          text += w.text;
          if (k === 0 || text.length < legal.text.length - 2) continue;
          if (text.length > legal.text.length + 2) break;
          const allowed = allowedEdits(
            Math.max(text.length, legal.text.length),
            params.levDistanceMax,
            params.policy.tokens.editBudgetBounds,
          );
          if (boundedEditDistance(text, legal.text, allowed) <= allowed) {
            // scored above a single legal-form match so the whole misspelt phrase is consumed
            if (legalIsQuery) edges.push(j, 1, i, k + 1, ap.misspeltLegalPhrase, 'fuzzy', qDen, cDen);
            else edges.push(i, k + 1, j, 1, ap.misspeltLegalPhrase, 'fuzzy', qDen, cDen);
          }
        }
      }
    }
  }

  // Highest similarity first; on equal score prefer the edge covering more tokens,
  // then the pair closest in relative position, then input order.
  sortSmall(edges.items, edges.length, compareEdges);

  const usedQ = nq <= SCRATCH_TOKENS ? scratch.usedQ.fill(0, 0, nq) : new Uint8Array(nq);
  const usedC = nc <= SCRATCH_TOKENS ? scratch.usedC.fill(0, 0, nc) : new Uint8Array(nc);
  const wq = memo ? memo.weights : tokenWeights(q, rarity, params);
  // the list token weights are data[nc + j]
  const aligned: Array<AlignedToken & { first: number }> = [];
  let num = 0;
  let den = 0;
  let evidence = 0;
  let sure = 0;
  let approx = 0;
  // v3: once the whole list name is found in the query, the query's words outside the span it
  // covers are extra words, not a different name: -1 while containment does not hold
  let spanFirst = -1;
  let spanLast = -1;
  /** the evidence of the most distinctive aligned query word (or run of words) */
  let mostDistinctive = 0;
  for (let phase = 0; phase < 3; phase++) {
    if (phase === 1) {
      const rareEnough =
        containment !== null &&
        (evidence >= containment.minEvidence || mostDistinctive >= containment.distinctiveWordEvidence);
      if (
        containment !== null &&
        approx === 0 &&
        rareEnough &&
        !isSyllabic(q[0]!.script) &&
        listFullyPresent(c, usedC, containment.minTokens)
      ) {
        for (let i = 0; i < nq; i++) {
          if (!usedQ[i]) continue;
          if (spanFirst < 0) spanFirst = i;
          spanLast = i;
        }
      }
      // leftover words on both sides contradict each other, heaviest first; a word the query has
      // beside a list name it wholly holds (v3) contradicts nothing ("Viktor Bout Ivanov" is not
      // "Viktor Anatolijevitch Bout" with a wrong patronymic), one inside it still does (Valery Petrovich Ermakov)
      const contentQ = nq <= SCRATCH_TOKENS ? scratch.contentQ : new Int32Array(nq);
      const contentC = nc <= SCRATCH_TOKENS ? scratch.contentC : new Int32Array(nc);
      let countQ = 0;
      let countC = 0;
      for (let i = 0; i < nq; i++)
        if (
          !usedQ[i] &&
          isContent(q[i]!.kind) &&
          !(spanFirst >= 0 && (i < spanFirst || i > spanLast) && q[i]!.kind === 'word')
        )
          contentQ[countQ++] = i;
      for (let j = 0; j < nc; j++) if (!usedC[j] && isContent(c[j]!.kind)) contentC[countC++] = j;
      const pairs = Math.min(countQ, countC);
      if (pairs === 0) continue;
      sortByWeight(contentQ, countQ, wq, 0);
      sortByWeight(contentC, countC, data, nc);
      for (let k = 0; k < pairs; k++) {
        const i = contentQ[k]!;
        const j = contentC[k]!;
        usedQ[i] = 1;
        usedC[j] = 1;
        const numbers = q[i]!.kind === 'number' || c[j]!.kind === 'number' ? ap.numberContradiction : 1;
        const w = ((wq[i]! + data[nc + j]!) / 2) * ap.contradictionCost * numbers;
        den += w;
        if (explain)
          aligned.push({
            first: i,
            query: [q[i]!.text],
            list: [c[j]!.text],
            method: 'contradicted',
            score: 0,
            weight: round4(w),
          });
      }
      continue;
    }
    const initialPhase = phase === 2;
    for (let k = 0; k < edges.length; k++) {
      const e = edges.items[k]!;
      if (e.initial !== initialPhase) continue;
      let free = true;
      for (let i = e.qs; i < e.qs + e.qn; i++) if (usedQ[i]) free = false;
      for (let j = e.cs; j < e.cs + e.cn; j++) if (usedC[j]) free = false;
      if (!free) continue;
      let weightQ = 0;
      let weightC = 0;
      let evid = 0;
      for (let i = e.qs; i < e.qs + e.qn; i++) {
        usedQ[i] = 1;
        weightQ += wq[i]!;
        evid += evidenceWeight(q[i]!, rarity, ap.evidence);
      }
      for (let j = e.cs; j < e.cs + e.cn; j++) {
        usedC[j] = 1;
        weightC += data[nc + j]!;
      }
      if (v2 && !initialPhase && isContent(q[e.qs]!.kind)) {
        if (e.method === 'fuzzy' || e.method === 'phonetic') approx++;
        else sure++;
      }
      // an initial proves less than a whole name: weigh it as the initial
      const w = initialPhase ? Math.min(weightQ, weightC) : (weightQ + weightC) / 2;
      num += w * e.score;
      den += w;
      evidence += e.score * evid;
      if (e.score * evid > mostDistinctive) mostDistinctive = e.score * evid;
      if (explain) {
        aligned.push({
          first: e.qs,
          query: q.slice(e.qs, e.qs + e.qn).map((t) => t.text),
          list: c.slice(e.cs, e.cs + e.cn).map((t) => t.text),
          method: e.method,
          score: round4(e.score),
          weight: round4(w),
        });
        // v2 explanations name the scripts of a transliterated pair: transliteration(han→latin)
        if (explainScripts && e.method === 'transliterated')
          aligned[aligned.length - 1]!.scripts = [q[e.qs]!.script, c[e.cs]!.script];
      }
    }
  }
  // v2: a Han or Hangul query lacking a syllable of a list name (or adding one) differs by a character of the name, not by a middle name
  const syllabicQuery = v2 && nq > 0 && isSyllabic(q[0]!.script);
  // v2: a list name wholly inside the query, followed by a distinctive word it lacks, is a
  // different name (Nabil TIZINI Nakamura is not Nabil TIZINI), not an omitted middle name. v3
  // keeps this only for names not rare enough to be held (containment above has taken the others'
  // extra words): an added surname after "Mohammed Saeed" is still more likely another person
  let trailingFrom = nq;
  if (v2 && nc >= 2) {
    let listContained = true;
    let matchedContent = 0;
    for (let j = 0; j < nc; j++) {
      if (!isContent(c[j]!.kind)) continue;
      if (usedC[j]) matchedContent++;
      else listContained = false;
    }
    if (listContained && matchedContent >= 2) {
      let lastUsed = -1;
      for (let i = 0; i < nq; i++) if (usedQ[i]) lastUsed = i;
      trailingFrom = lastUsed + 1;
    }
  }
  let extras = 0;
  for (let i = 0; i < nq; i++) {
    if (usedQ[i]) continue;
    const t = q[i]!;
    if (spanFirst >= 0 && t.kind === 'word') {
      // v3: beside the whole list name, priced by scoring per word rather than as part of the name
      extras++;
      if (explain) aligned.push({ first: i, query: [t.text], list: [], method: 'extra', score: 0, weight: 0 });
      continue;
    }
    // after a particle it is a lineage or place name that extends the name (Saddam Hussein al-Tikriti), not another surname
    const trailing =
      i >= trailingFrom &&
      t.kind === 'word' &&
      !t.generic &&
      t.text.length > 1 &&
      !LEGAL_FAMILY_OF_TEXT.has(t.text) &&
      !(i > 0 && q[i - 1]!.kind === 'particle');
    const w =
      wq[i]! *
      (t.kind === 'number'
        ? 1
        : trailing || (syllabicQuery && isContent(t.kind))
          ? specificity!.trailingExtraCost
          : ap.extraQueryCost);
    den += w;
    if (explain)
      aligned.push({ first: i, query: [q[i]!.text], list: [], method: 'unmatched', score: 0, weight: round4(w) });
  }
  const unmatchedList: string[] = [];
  for (let j = 0; j < nc; j++) {
    if (usedC[j]) continue;
    const t = c[j]!;
    const cost =
      t.kind === 'number'
        ? 1
        : syllabicQuery && isContent(t.kind)
          ? specificity!.missingSyllableCost
          : specificity !== null && t.compound === true && compoundPartMatched(c, usedC)
            ? specificity.missingCompoundCost
            : t.family
              ? ap.missingFamilyCost
              : ap.missingListCost;
    den += data[nc + j]! * cost;
    if (explain) unmatchedList.push(t.text);
  }
  const score = den > 0 ? num / den : 0;
  if (v2) {
    let hasFamily = false;
    let familyMatched = false;
    for (let j = 0; j < nc; j++) {
      if (c[j]!.family !== true || !isContent(c[j]!.kind)) continue;
      hasFamily = true;
      if (usedC[j]) familyMatched = true;
    }
    const familyMissing = hasFamily && !familyMatched;
    const held = spanFirst >= 0 ? extras : -1;
    if (!explain) return { score, tokens: [], unmatchedList, evidence, sure, approx, familyMissing, extras: held };
    aligned.sort((a, b) => a.first - b.first);
    return {
      score,
      tokens: aligned.map(({ first: _first, ...t }) => t),
      unmatchedList,
      evidence,
      sure,
      approx,
      familyMissing,
      extras: held,
    };
  }
  if (!explain) return { score, tokens: [], unmatchedList, evidence };
  aligned.sort((a, b) => a.first - b.first);
  return { score, tokens: aligned.map(({ first: _first, ...t }) => t), unmatchedList, evidence };
}

function runWrittenBothWays(tokens: readonly NameToken[], from: number, count: number): boolean {
  for (let k = from; k < from + count; k++) if (tokens[k]!.bothWays !== true) return false;
  return true;
}

function compoundPartMatched(tokens: readonly NameToken[], used: Uint8Array): boolean {
  for (let j = 0; j < tokens.length; j++) if (used[j] && tokens[j]!.compound === true) return true;
  return false;
}

// v3: containment. A query holds a list name wholly when, once the words are aligned, every
// word of the list name is in it as the same word (exact, a known variant or a transliteration,
// not a spelling or sound that is merely close) but omitted middle names (listFullyPresent), and
// the name is rare enough to mean something (policy containment.minEvidence: two uncommon words,
// the point from which the evidence factor no longer scales a name down, "Vladimir Putin"; or
// containment.distinctiveWordEvidence: one word the lists hardly share, rarity 0.875, on the shared
// lists a word at most about four of their 57,000 names have, beside the rest of the name however
// common, "Kalashnikov Concern", "Polo Trading"). "Muhammad Saeed" and "John Smith" have neither:
// extra words cost them what they cost in v2 (a different surname after the whole name).
// How the query capitalises its words does not count: an attacker chooses it ("Vladimir Putin
// SMITH" marks SMITH as the family name by the lists' convention). Han and Hangul queries are left
// out: their tokens are syllables of one name, and a syllable more is another name
// (missingSyllableCost). The query's other words are then extra words beside the name, priced
// apart by scoring (score-entity.ts). A one-word name without a legal form ("HORIZON") is never
// held this way (containment.minTokens): inside a longer name it proves little (see specificityCap).

/**
 * v3: every list word and number is matched but middle names (a word between two the query
 * matched, such as a patronymic), never a family name; at least one word, and `minTokens`
 * words and legal forms (one may be the legal form: "VORKUTAUGOL JSC" in "JSC Vorkutaugol Jensen"), are matched.
 */
function listFullyPresent(c: readonly NameToken[], usedC: Uint8Array, minTokens: number): boolean {
  let first = -1;
  let last = -1;
  let words = 0;
  let legal = 0;
  for (let j = 0; j < c.length; j++) {
    if (!usedC[j]) continue;
    if (c[j]!.kind === 'legal') legal++;
    if (!isContent(c[j]!.kind)) continue;
    if (first < 0) first = j;
    last = j;
    words++;
  }
  if (words === 0 || words + legal < minTokens) return false;
  for (let j = 0; j < c.length; j++) {
    const t = c[j]!;
    if (usedC[j] || !isContent(t.kind)) continue;
    if (t.kind === 'number' || t.family === true || j < first || j > last) return false;
  }
  return true;
}

/**
 * v2: joining words across a boundary ("Anna Bell" ↔ "ANABELL") counts only when the joined
 * spelling is the same word (or the same word in another script); a fuzzy or phonetic join is
 * two coincidences at once. Where a list writes a name both ways, its other spelling matches
 * the query directly.
 */
function joinAllowed(sim: TokenSimilarity): boolean {
  return sim.method === 'transliterated' || (sim.method === 'exact' && sim.score >= 1) || sim.method === 'equivalent';
}

export function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}
