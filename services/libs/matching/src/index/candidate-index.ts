import type { Entity } from '@vigil/lists';
import { resolveConfig, type MatchingConfig, type QueryTunables } from '../config.js';
import { isJoinable, joinTokens, type NameForm, type NameToken } from '../name/analyze.js';
import { AlignScratch, compareTokens, newCompareContext, type NameParams, type Rarity } from '../name/compare.js';
import { isLooseScript, looseKey, looseKeyOf } from '../text/loose.js';
import { isAbjad } from '../text/scripts.js';
import { DEFAULT_RULES, type EngineRules } from '../rules.js';
import {
  entityScore,
  prepareEntity,
  prepareQuery,
  scoreEntity,
  type EntityMatch,
  type NameView,
  type PreparedEntity,
  type PreparedQuery,
  type ScoreOptions,
  type ScreeningQuery,
} from '../match/score-entity.js';
import { isTwinName, twinNames } from '../match/twins.js';
import { trigrams } from '../similarity.js';
import { Postings, PostingsBuilder } from './postings.js';
import { coarseSkeleton } from '../text/abjad.js';
import { groupsWithSkeleton } from '../text/equivalents.js';

/** Token kinds that retrieve candidates; legal forms, particles and titles are too common to. */
const RETRIEVING = new Set(['word', 'number']);

/** A name is scored only when its retrieval coverage is at least this share of its entity's best name. */
const NAME_COVERAGE_RATIO = 0.8;

/** A retrieved entity: its index, the names worth scoring, and its share of the query's weight that retrieval found. */
export type Candidate = { entity: number; names: number[]; coverage: number; refs: number[] };

/** At most about this many list names are scored per query (whole candidates, best first). */
const NAME_BUDGET = 70;

/** Share of the query's weight a name must still be able to reach for retrieval to start it. */
const RETRIEVAL_PRUNE_FLOOR = 0.25;

/** Trigram posting lists longer than this are credited rather than scanned. */
const TRIGRAM_SCAN_MAX = 20_000;

/** At most this many trigram-similar vocabulary terms are verified per query token. */
const TRIGRAM_VERIFY_MAX = 400;

/**
 * What a query unit reaches, built once per distinct unit and memoised: rows of EXPANSION_FIELDS
 * numbers (term id, or -1 for joined list words, -2 for their skeletons; weight before dividing
 * by the query form's total; start and end of its postings), heaviest first, then by id. The
 * weights of a unit depend only on the unit and the index, so neither the rows nor their order
 * need recomputing per query; the postings they scan add up to `scan`.
 */
type UnitExpansion = { rows: Float64Array; scan: number };

const EXPANSION_FIELDS = 4;

/** Bound on memoised token expansions (distinct query tokens). */
const EXPANSION_CACHE_MAX = 20_000;

/** Caps how many vocabulary terms one phonetic/skeleton bucket may expand a query token into. */
const BUCKET_SCAN_MAX = 1500;

export type IndexStats = {
  entities: number;
  /** the records' own names */
  names: number;
  /** v3: non-Latin names records carry from their twins on other lists (match/twins.ts) */
  twinNames: number;
  terms: number;
  compounds: number;
  postings: number;
};

/** Name-comparison parameters for a rule set under a config. */
function nameParams(rules: EngineRules, config: MatchingConfig): NameParams {
  return { levDistanceMax: config.levDistanceMax, policy: rules.policy };
}

/**
 * An in-memory inverted index from name tokens to list names. A query token reaches list
 * names through its exact form, its name-equivalence group, its Double Metaphone codes,
 * its consonant skeleton (for Arabic and Hebrew script) and character trigrams (for
 * typos); joined adjacent list tokens are indexed too, so "Ramimakhlouf" finds "Rami
 * Makhlouf". Candidates are ranked by rarity-weighted token coverage, and the best
 * `candidateLimit` entities are scored in full.
 */
export class CandidateIndex {
  /** The index's tunables; while a query runs with its own (`screen`'s `tunables`), the query's. */
  config: MatchingConfig;
  params: NameParams;
  private readonly entities: PreparedEntity[] = [];
  /** name ref → entity index and name index */
  private refEntity: Int32Array = new Int32Array(0);
  private refName: Int32Array = new Int32Array(0);
  private refLength: Uint8Array = new Uint8Array(0);
  /** name ref → its analysed forms and whether it is a weak alias, for scoring without walking the entity */
  private refForms: NameForm[][] = [];
  private refWeak: Uint8Array = new Uint8Array(0);
  /** list names by vocabulary term; term ids index every per-term array below */
  private termPostings: Postings = new PostingsBuilder().build();
  private compoundPostings: Postings = new PostingsBuilder().build();
  private compoundSkeletonPostings: Postings = new PostingsBuilder().build();
  private termList: readonly string[] = [];
  private termTokens: NameToken[] = [];
  /** vocabulary terms by phonetic code, equivalence group, skeleton, coarse skeleton, trigram */
  private byPhonetic: Postings = new PostingsBuilder().build();
  private byGroup: Postings = new PostingsBuilder().build();
  private bySkeleton: Postings = new PostingsBuilder().build();
  private byCoarseSkeleton: Postings = new PostingsBuilder().build();
  /** v2: Latin terms by the loose key Greek, kana and Hebrew readings are compared with */
  private byLoose: Postings = new PostingsBuilder().build();
  private byTrigram: Postings = new PostingsBuilder().build();
  private termTrigramCount: Uint8Array = new Uint8Array(0);
  private logN = 1;
  /** list names that are the records' own, and per term how many borrowed names (v3 twins) carry it */
  private ownRefs = 0;
  private termBorrowed: Int32Array = new Int32Array(0);
  private readonly rarityFn: Rarity;
  // scratch space reused across queries (single-threaded)
  private acc: Float64Array = new Float64Array(0);
  private best: Float64Array = new Float64Array(0);
  private formSeen: Int32Array = new Int32Array(0);
  private formCounter = 0;
  private entityBest: Float64Array = new Float64Array(0);
  private entityStamp: Int32Array = new Int32Array(0);
  /** where each entity's refs start (and, for e + 1, end) */
  private entityRefs: Int32Array = new Int32Array(1);
  private termRarityWeight: Float64Array = new Float64Array(0);
  /** forward index: the vocabulary terms of each list name */
  private refTermsStart: Int32Array = new Int32Array(1);
  private refTerms: Int32Array = new Int32Array(0);
  private termMark: Int32Array = new Int32Array(0);
  private termMarkWeight: Float64Array = new Float64Array(0);
  private readonly expansionCache = new Map<string, UnitExpansion>();
  /** Prefix of expansion-cache keys: empty with the index's own tunables, else the query's. */
  private tunablesKey = '';
  private stamp: Int32Array = new Int32Array(0);
  private seen: Int32Array = new Int32Array(0);
  private queryCounter = 0;
  private tokenCounter = 0;
  private termHits: Uint16Array = new Uint16Array(0);
  /** refs a query form reached, refs any form reached, entities reached (counts in the retrieval code) */
  private formTouched: Int32Array = new Int32Array(0);
  private touched: Int32Array = new Int32Array(0);
  private reached: Int32Array = new Int32Array(0);
  private coverages: Float64Array = new Float64Array(0);

  readonly rules: EngineRules;
  /** the alignments' working memory, shared by this index's queries (screen is synchronous) */
  private readonly scratch = new AlignScratch();

  constructor(entities: Iterable<Entity>, config: Partial<MatchingConfig> = {}, rules: EngineRules = DEFAULT_RULES) {
    this.config = resolveConfig(config);
    this.rules = rules;
    this.params = nameParams(rules, this.config);
    this.rarityFn = (text) => this.rarity(text);
    this.build(entities);
  }

  private build(source: Iterable<Entity>): void {
    const termPostings = new PostingsBuilder();
    const compoundPostings = new PostingsBuilder();
    const compoundSkeletons = new PostingsBuilder();
    const refEntity: number[] = [];
    const refName: number[] = [];
    const refLength: number[] = [];
    const refWeak: number[] = [];
    const termTokens: NameToken[] = [];
    // names borrowed from twins (v3) are found like the record's own but do not count in rarity:
    // the same party's name on two lists is not two parties sharing a word
    let borrowedRefs = 0;
    const termBorrowed: number[] = [];
    const lastBorrowedRef: number[] = [];
    const all = this.rules.twinNames ? [...source] : null;
    const borrowed = all ? twinNames(all) : undefined;
    for (const entity of all ?? source) {
      const prepared = prepareEntity(entity, this.rules, borrowed?.get(entity));
      const ei = this.entities.length;
      this.entities.push(prepared);
      prepared.names.forEach((pn, ni) => {
        const ref = refEntity.length;
        refEntity.push(ei);
        refName.push(ni);
        refLength.push(Math.min(255, pn.analyzed.forms[0]?.tokens.length ?? 0));
        const twin = isTwinName(pn.name);
        if (twin) borrowedRefs++;
        this.refForms.push(pn.analyzed.forms);
        refWeak.push(pn.name.strength === 'weak' ? 1 : 0);
        for (const form of pn.analyzed.forms) {
          const t = form.tokens;
          for (let i = 0; i < t.length; i++) {
            const tok = t[i]!;
            if (!RETRIEVING.has(tok.kind)) continue;
            const id = termPostings.add(tok.text, ref);
            if (id === termTokens.length) termTokens.push({ ...tok, script: 'Latn' });
            if (twin && lastBorrowedRef[id] !== ref) {
              lastBorrowedRef[id] = ref;
              termBorrowed[id] = (termBorrowed[id] ?? 0) + 1;
            }
          }
          for (let i = 0; i + 1 < t.length; i++) {
            let text = t[i]!.text;
            if (!isJoinable(t[i]!.kind)) continue;
            let particle = t[i]!.kind === 'particle';
            for (let k = 1; k <= 2 && i + k < t.length; k++) {
              const next = t[i + k]!;
              if (!isJoinable(next.kind)) break;
              text += next.text;
              particle ||= next.kind === 'particle';
              compoundPostings.add(text, ref);
              // "Abd al-Hamid" is written عبدالحميد: joined Arabic words meet these by skeleton
              if (particle) compoundSkeletons.add(joinTokens(t.slice(i, i + k + 1)).skeleton, ref);
            }
          }
        }
      });
    }
    this.refEntity = Int32Array.from(refEntity);
    this.refName = Int32Array.from(refName);
    this.refLength = Uint8Array.from(refLength);
    this.refWeak = Uint8Array.from(refWeak);
    this.termPostings = termPostings.build();
    this.compoundPostings = compoundPostings.build();
    this.compoundSkeletonPostings = compoundSkeletons.build();
    this.termList = this.termPostings.keys;
    this.termTokens = termTokens;
    const phon = new PostingsBuilder();
    const group = new PostingsBuilder();
    const skel = new PostingsBuilder();
    const coarse = new PostingsBuilder();
    const tri = new PostingsBuilder();
    const loose = new PostingsBuilder();
    const looseReadings = this.rules.readings === 'v2';
    this.termTrigramCount = new Uint8Array(this.termList.length);
    this.termList.forEach((text, id) => {
      const tok = this.termTokens[id]!;
      if (tok.kind !== 'word') return;
      for (const code of tok.phonetic) phon.add(code, id);
      if (tok.group >= 0) group.add(String(tok.group), id);
      if (tok.skeleton) {
        skel.add(tok.skeleton, id);
        const c = coarseSkeleton(tok.skeleton);
        if (c !== tok.skeleton) coarse.add(c, id);
      }
      if (looseReadings && tok.script === 'Latn') {
        const k = looseKeyOf(text);
        if (k.length >= 3) loose.add(k, id);
      }
      const grams = trigrams(text);
      this.termTrigramCount[id] = Math.min(255, grams.length);
      for (const g of grams) tri.add(g, id);
    });
    this.byPhonetic = phon.build();
    this.byGroup = group.build();
    this.bySkeleton = skel.build();
    this.byCoarseSkeleton = coarse.build();
    this.byTrigram = tri.build();
    this.byLoose = loose.build();
    const n = this.refEntity.length;
    this.ownRefs = n - borrowedRefs;
    this.termBorrowed = Int32Array.from({ length: this.termList.length }, (_, id) => termBorrowed[id] ?? 0);
    this.logN = Math.log(this.ownRefs + 1);
    for (const pe of this.entities) {
      for (const pn of pe.names)
        for (const form of pn.analyzed.forms)
          for (const t of form.tokens) if (t.kind === 'word' || t.kind === 'initial') t.rarity = this.rarity(t.text);
    }
    this.acc = new Float64Array(n);
    this.entityBest = new Float64Array(this.entities.length);
    this.entityStamp = new Int32Array(this.entities.length);
    // refs are numbered entity by entity: entity e holds refs [entityRefs[e], entityRefs[e + 1])
    this.entityRefs = new Int32Array(this.entities.length + 1);
    for (let r = 0; r < n; r++) this.entityRefs[this.refEntity[r]! + 1] = r + 1;
    for (let e = 0; e < this.entities.length; e++)
      if (this.entityRefs[e + 1]! < this.entityRefs[e]!) this.entityRefs[e + 1] = this.entityRefs[e]!;
    this.best = new Float64Array(n);
    this.formSeen = new Int32Array(n);
    this.termRarityWeight = Float64Array.from(this.termList, (t) => this.rarity(t) * 0.65 + 0.35);
    const counts = new Int32Array(n + 1);
    for (let id = 0; id < this.termList.length; id++) {
      const p = this.termPostings.list(id);
      for (let k = 0; k < p.length; k++) counts[p[k]! + 1]!++;
    }
    for (let r = 0; r < n; r++) counts[r + 1]! += counts[r]!;
    this.refTermsStart = counts;
    this.refTerms = new Int32Array(counts[n]!);
    const fill = counts.slice(0, n);
    for (let id = 0; id < this.termList.length; id++) {
      const p = this.termPostings.list(id);
      for (let k = 0; k < p.length; k++) this.refTerms[fill[p[k]!]!++] = id;
    }
    this.termMark = new Int32Array(this.termList.length);
    this.termMarkWeight = new Float64Array(this.termList.length);
    this.stamp = new Int32Array(n);
    this.seen = new Int32Array(n);
    this.termHits = new Uint16Array(this.termList.length);
    this.formTouched = new Int32Array(n);
    this.touched = new Int32Array(n);
    this.reached = new Int32Array(this.entities.length);
    this.coverages = new Float64Array(Math.max(n, this.entities.length));
  }

  stats(): IndexStats {
    return {
      entities: this.entities.length,
      names: this.ownRefs,
      twinNames: this.refEntity.length - this.ownRefs,
      terms: this.termList.length,
      compounds: this.compoundPostings.size,
      postings: this.termPostings.total,
    };
  }

  /** Informativeness of a token in [0, 1]: inverse document frequency over list names. */
  rarity(text: string): number {
    const id = this.termPostings.idOf(text);
    const count = id === undefined ? 0 : this.termPostings.count(id) - this.termBorrowed[id]!;
    if (count <= 0) return 1;
    return Math.max(0, Math.min(1, Math.log((this.ownRefs + 1) / count) / this.logN));
  }

  /** What a query unit (a token, or joined tokens when `compound`) reaches, memoised across queries. */
  private unitExpansion(tok: NameToken, compound: boolean): UnitExpansion {
    const fuzzy = !compound;
    const key = `${this.tunablesKey}${fuzzy ? 1 : 0}${tok.kind}\u0001${tok.script}\u0001${tok.text}\u0001${tok.skeleton}\u0001${tok.skeleton2 ?? ''}`;
    const cached = this.expansionCache.get(key);
    if (cached) return cached;
    type Row = [id: number, weight: number, start: number, end: number];
    const rows: Row[] = [];
    // a one- or two-consonant skeleton (يحيى → H) says little about which name it is
    const abjad = isAbjad(tok.script);
    const specificity = !abjad ? 1 : tok.skeleton.length <= 1 ? 0.4 : tok.skeleton.length === 2 ? 0.7 : 1;
    const terms = this.termPostings;
    for (const [id, sim] of this.expand(tok, fuzzy)) {
      const s = abjad && this.termList[id] !== tok.text ? sim * specificity : sim;
      rows.push([id, s * this.termRarityWeight[id]!, terms.start(id), terms.start(id + 1)]);
    }
    if (!compound) {
      // list names that join what the query splits
      const weight = this.rarity(tok.text) * 0.65 + 0.35;
      const joined = this.compoundPostings.idOf(tok.text);
      if (joined !== undefined)
        rows.push([-1, weight, this.compoundPostings.start(joined), this.compoundPostings.start(joined + 1)]);
      if (abjad && tok.skeleton.length >= 3) {
        const skeletons = this.compoundSkeletonPostings;
        const bySkeleton = skeletons.idOf(tok.skeleton);
        if (bySkeleton !== undefined)
          rows.push([-2, 0.9 * weight, skeletons.start(bySkeleton), skeletons.start(bySkeleton + 1)]);
      }
    }
    // Dividing every weight by the form's total later keeps this order, up to ties that
    // division may create; tied rows give a name the same weight whichever claims it.
    rows.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    const flat = new Float64Array(rows.length * EXPANSION_FIELDS);
    let scan = 0;
    rows.forEach((row, x) => {
      flat.set(row, x * EXPANSION_FIELDS);
      scan += row[3] - row[2];
    });
    const result: UnitExpansion = { rows: flat, scan };
    if (this.expansionCache.size >= EXPANSION_CACHE_MAX) this.expansionCache.clear();
    this.expansionCache.set(key, result);
    return result;
  }

  /** Vocabulary terms a query token may stand for, with their token similarity, by term id. */
  private expand(tok: NameToken, fuzzy: boolean): Array<[number, number]> {
    const out = new Map<number, number>();
    const consider = (id: number) => {
      if (out.has(id)) return;
      const sim = compareTokens(tok, this.termTokens[id]!, this.params).score;
      if (sim > 0) out.set(id, sim);
    };
    const exact = this.termPostings.idOf(tok.text);
    if (exact !== undefined && tok.script === 'Latn') out.set(exact, 1);
    else if (exact !== undefined) consider(exact);
    if (tok.kind === 'word') {
      if (tok.group >= 0) this.byGroup.get(String(tok.group))?.forEach(consider);
      for (const code of tok.phonetic) {
        const bucket = this.byPhonetic.get(code);
        if (!bucket || bucket.length > BUCKET_SCAN_MAX) continue;
        // a sound-alike still has to be about as long to be accepted
        const len = tok.text.length;
        for (let k = 0; k < bucket.length; k++) {
          const id = bucket[k]!;
          if (Math.abs(this.termList[id]!.length - len) <= 3) consider(id);
        }
      }
      if (isAbjad(tok.script) && tok.skeleton) {
        for (const sk of tok.skeleton2 ? [tok.skeleton, tok.skeleton2] : [tok.skeleton]) {
          const bucket = this.bySkeleton.get(sk);
          if (bucket && bucket.length <= BUCKET_SCAN_MAX) bucket.forEach(consider);
        }
        const coarse = this.byCoarseSkeleton.get(coarseSkeleton(tok.skeleton));
        if (coarse && coarse.length <= BUCKET_SCAN_MAX) coarse.forEach(consider);
        if (tok.skeleton.length >= 2)
          for (const g of groupsWithSkeleton(tok.skeleton)) this.byGroup.get(String(g))?.forEach(consider);
      }
      // Greek, kana and Hebrew readings of a Latin name rarely share its spelling or its
      // Double Metaphone code (Ολγα Αλιμοβα, オルガ・アリモバ): meet them by loose key
      if (isLooseScript(tok.script)) {
        const k = looseKey(tok.text);
        const bucket = k.length >= 3 ? this.byLoose.get(k) : undefined;
        if (bucket && bucket.length <= BUCKET_SCAN_MAX) bucket.forEach(consider);
      }
      const grams = fuzzy ? trigrams(tok.text) : [];
      if (grams.length >= 3) {
        const touched: number[] = [];
        const hits = this.termHits;
        // Trigrams shared by a huge part of the vocabulary are not scanned; every term is
        // credited with them instead, so the thresholds below can only let more through.
        let skipped = 0;
        for (const g of grams) {
          const list = this.byTrigram.get(g);
          if (!list) continue;
          if (list.length > TRIGRAM_SCAN_MAX) {
            skipped++;
            continue;
          }
          for (let k = 0; k < list.length; k++) {
            const id = list[k]!;
            if (hits[id] === 0) touched.push(id);
            hits[id]!++;
          }
        }
        const minHits = Math.max(1, this.config.trigramHitsMin);
        const passing: Array<[number, number]> = [];
        for (const id of touched) {
          const h = hits[id]! + skipped;
          hits[id] = 0;
          if (h < minHits) continue;
          const dice = (2 * h) / (grams.length + this.termTrigramCount[id]!);
          if (dice >= this.config.dbSimThreshold) passing.push([id, dice]);
        }
        // verify the closest terms first, and not more than a bounded number of them
        if (passing.length > TRIGRAM_VERIFY_MAX) {
          passing.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
          passing.length = TRIGRAM_VERIFY_MAX;
        }
        for (const [id] of passing) consider(id);
      }
    }
    return [...out].sort((a, b) => a[0] - b[0]);
  }

  /**
   * Retrieves candidate entities (and which of their names to score) for a prepared query, best
   * first. With `scope` (1 per entity index that may be returned), entities outside it are never
   * started, so pruning and the candidate limit apply to what the caller may see.
   */
  candidates(query: PreparedQuery, scope?: Uint8Array): Candidate[] {
    const queryStamp = ++this.queryCounter;
    const best = this.best;
    const acc = this.acc;
    const stamp = this.stamp;
    const formSeen = this.formSeen;
    const seen = this.seen;
    const refEntity = this.refEntity;
    const formTouched = this.formTouched;
    const touched = this.touched;
    let touchedCount = 0;
    const termValues = this.termPostings.values;
    const compoundValues = this.compoundPostings.values;
    const compoundSkeletonValues = this.compoundSkeletonPostings.values;
    const multiForm = query.name.forms.length > 1;
    // form stamps only grow: a ref whose stamp is at least this one was reached by this query
    const firstFormStamp = this.formCounter + 1;
    for (const form of query.name.forms) {
      const tokens = form.tokens;
      const units: Array<{ tok: NameToken; compound: boolean; weight: number }> = [];
      let total = 0;
      for (const t of tokens) {
        if (!RETRIEVING.has(t.kind)) continue;
        const weight = this.rarity(t.text) * 0.65 + 0.35;
        total += weight;
        units.push({ tok: t, compound: false, weight });
      }
      if (total === 0) continue;
      for (let i = 0; i + 1 < tokens.length; i++) {
        const a = tokens[i]!;
        if (!isJoinable(a.kind)) continue;
        let weight = RETRIEVING.has(a.kind) ? this.rarity(a.text) * 0.65 + 0.35 : 0;
        for (let k = 1; k <= 2 && i + k < tokens.length; k++) {
          const b = tokens[i + k]!;
          if (!isJoinable(b.kind)) break;
          if (RETRIEVING.has(b.kind)) weight += this.rarity(b.text) * 0.65 + 0.35;
          units.push({ tok: joinTokens(tokens.slice(i, i + k + 1)), compound: true, weight: Math.max(weight, 0.35) });
        }
      }
      // Rarest first. A name first reached when the units left cannot lift it to the
      // candidate floor is not started: common tokens only add to names already found.
      units.sort((a, b) => b.weight - a.weight || a.tok.text.localeCompare(b.tok.text));
      let remaining = units.reduce((sum, u) => sum + u.weight, 0) / total;
      const formStamp = ++this.formCounter;
      let formCount = 0;
      const limit = this.config.candidateLimit;
      let closed = false;
      for (const u of units) {
        // New names are started only while they could still make the cut: at least the
        // prune floor, and not already beaten by enough names found by rarer tokens. Both
        // tests only tighten as units are processed, so once closed, retrieval stays closed.
        if (!closed && remaining < RETRIEVAL_PRUNE_FLOOR) closed = true;
        // a name found so far has at most 1 - remaining: the cut can only bite below 0.5
        if (!closed && remaining <= 0.5 && formCount > 3 * limit) {
          const values = this.coverages;
          for (let k = 0; k < formCount; k++) values[k] = acc[formTouched[k]!]!;
          if (kthLargest(values, formCount, 3 * limit) >= remaining) closed = true;
        }
        const open = !closed;
        remaining -= u.weight / total;
        const stampId = ++this.tokenCounter;
        const { rows, scan } = this.unitExpansion(u.tok, u.compound);
        if (!open && scan > 4 * formCount) {
          // only names already found can gain: look their terms up instead of scanning postings
          const mark = this.termMark;
          const markW = this.termMarkWeight;
          for (let x = 0; x < rows.length; x += EXPANSION_FIELDS) {
            const id = rows[x]!;
            if (id >= 0 && mark[id] !== stampId) {
              mark[id] = stampId;
              markW[id] = rows[x + 1]! / total;
            }
          }
          const refTermsStart = this.refTermsStart;
          const refTerms = this.refTerms;
          for (let f = 0; f < formCount; f++) {
            const ref = formTouched[f]!;
            let gain = 0;
            for (let k = refTermsStart[ref]!, end = refTermsStart[ref + 1]!; k < end; k++) {
              const id = refTerms[k]!;
              if (mark[id] === stampId && markW[id]! > gain) gain = markW[id]!;
            }
            acc[ref]! += gain;
          }
          continue;
        }
        for (let x = 0; x < rows.length; x += EXPANSION_FIELDS) {
          const id = rows[x]!;
          const w = rows[x + 1]! / total;
          const postings = id >= 0 ? termValues : id === -1 ? compoundValues : compoundSkeletonValues;
          for (let k = rows[x + 2]!, end = rows[x + 3]!; k < end; k++) {
            const ref = postings[k]!;
            if (stamp[ref] === stampId) continue;
            stamp[ref] = stampId;
            if (formSeen[ref] !== formStamp) {
              if (!open) continue;
              if (scope !== undefined && scope[refEntity[ref]!] !== 1) continue;
              formSeen[ref] = formStamp;
              acc[ref] = 0;
              formTouched[formCount++] = ref;
            }
            acc[ref]! += w;
          }
        }
      }
      // a query read several ways (Han as Mandarin or Korean) takes its best reading per name;
      // joined units overlap the tokens they join, so coverage is capped at the whole query
      if (touchedCount === 0) {
        // nothing reached yet this query: every name is new, and only later readings need `seen`
        for (let f = 0; f < formCount; f++) {
          const ref = formTouched[f]!;
          if (acc[ref]! > 1) acc[ref] = 1;
          if (multiForm) seen[ref] = queryStamp;
          best[ref] = acc[ref]!;
          touched[touchedCount++] = ref;
        }
        continue;
      }
      for (let f = 0; f < formCount; f++) {
        const ref = formTouched[f]!;
        if (acc[ref]! > 1) acc[ref] = 1;
        if (seen[ref] !== queryStamp) {
          seen[ref] = queryStamp;
          best[ref] = acc[ref]!;
          touched[touchedCount++] = ref;
        } else if (acc[ref]! > best[ref]!) best[ref] = acc[ref]!;
      }
    }
    // best coverage per entity, a little less for list names much longer or shorter than the query
    const queryLength = query.name.forms[0]?.tokens.length ?? 0;
    const entityBest = this.entityBest;
    const entityStamp = this.entityStamp;
    const refLength = this.refLength;
    const reached = this.reached;
    let reachedCount = 0;
    let bestCoverage = 0;
    for (let t = 0; t < touchedCount; t++) {
      const ref = touched[t]!;
      const cov = best[ref]! - 0.03 * Math.abs(refLength[ref]! - queryLength);
      best[ref] = cov;
      if (cov > bestCoverage) bestCoverage = cov;
      const e = refEntity[ref]!;
      if (entityStamp[e] !== queryStamp) {
        entityStamp[e] = queryStamp;
        entityBest[e] = cov;
        reached[reachedCount++] = e;
      } else if (cov > entityBest[e]!) entityBest[e] = cov;
    }
    const floor = Math.max(bestCoverage * 0.35, Math.min(0.3, bestCoverage * 0.5));
    // cross-script queries are retrieved by skeletons, which are less selective: look further
    const crossScript = query.name.forms.some((f) => f.tokens.some((t) => isAbjad(t.script)));
    const limit = crossScript ? Math.round(this.config.candidateLimit * 1.5) : this.config.candidateLimit;
    let kept: number[] = [];
    for (let r = 0; r < reachedCount; r++) if (entityBest[reached[r]!]! >= floor) kept.push(reached[r]!);
    if (kept.length > 4 * limit) {
      // only the best `limit` are needed: cut at the limit-th coverage before sorting
      const values = this.coverages;
      for (let k = 0; k < kept.length; k++) values[k] = entityBest[kept[k]!]!;
      const cut = kthLargest(values, kept.length, limit);
      kept = kept.filter((e) => entityBest[e]! >= cut);
    }
    kept.sort((a, b) => entityBest[b]! - entityBest[a]! || a - b);
    if (kept.length > limit) kept.length = limit;
    // bound the scoring work of one query: best-covered candidates first, up to a name budget;
    // of each, only the names the query reached (a form stamp of this query), near its best one
    const out: Candidate[] = [];
    let budget = NAME_BUDGET;
    const entityRefs = this.entityRefs;
    const refName = this.refName;
    for (let k = 0; k < kept.length; k++) {
      if (budget <= 0) break;
      const e = kept[k]!;
      const bar = entityBest[e]! * NAME_COVERAGE_RATIO;
      // an entity's refs are consecutive in name order: ascending refs are ascending names
      const refs: number[] = [];
      const names: number[] = [];
      for (let ref = entityRefs[e]!, end = entityRefs[e + 1]!; ref < end; ref++) {
        if (formSeen[ref]! >= firstFormStamp && best[ref]! >= bar) {
          refs.push(ref);
          names.push(refName[ref]!);
        }
      }
      budget -= refs.length;
      out.push({ entity: e, names, coverage: entityBest[e]!, refs });
    }
    return out;
  }

  /**
   * Screens one query: retrieve, score, sort (score desc, then list and source id), explain the
   * results returned. `scope` restricts it to some entities (1 per entity index, in the order the
   * index was built); token rarity stays that of the whole index.
   */
  screen(
    query: ScreeningQuery,
    limit = this.config.resultLimit,
    scope?: Uint8Array,
    tunables?: QueryTunables,
  ): EntityMatch[] {
    if (!tunables || this.isIndexTuning(tunables)) return this.screenWithConfig(query, limit, scope);
    // The query runs with the caller's tunables in place of the index's (synchronously, so no
    // other query sees them); the expansions it memoises are keyed by them.
    const saved = { config: this.config, params: this.params, key: this.tunablesKey };
    this.config = resolveConfig({ ...this.config, ...tunables });
    this.params = nameParams(this.rules, this.config);
    this.tunablesKey = `${this.config.dbSimThreshold}\u0002${this.config.trigramHitsMin}\u0002${this.config.levDistanceMax}\u0002`;
    try {
      return this.screenWithConfig(query, limit, scope);
    } finally {
      this.config = saved.config;
      this.params = saved.params;
      this.tunablesKey = saved.key;
    }
  }

  private isIndexTuning(t: QueryTunables): boolean {
    const c = this.config;
    return (
      (t.dbSimThreshold ?? c.dbSimThreshold) === c.dbSimThreshold &&
      (t.trigramHitsMin ?? c.trigramHitsMin) === c.trigramHitsMin &&
      (t.levDistanceMax ?? c.levDistanceMax) === c.levDistanceMax &&
      (t.highScore ?? c.highScore) === c.highScore &&
      (t.mediumScore ?? c.mediumScore) === c.mediumScore
    );
  }

  private screenWithConfig(query: ScreeningQuery, limit: number, scope?: Uint8Array): EntityMatch[] {
    const prepared = prepareQuery(query, this.rules);
    for (const form of prepared.name.forms)
      for (const t of form.tokens) if (t.kind === 'word' || t.kind === 'initial') t.rarity = this.rarity(t.text);
    // rank by score alone; only the matches returned are built, with their explanations
    const ranked: Array<{ e: number; entity: Entity; score: number; nameIndex: number; twin: boolean }> = [];
    const context = newCompareContext(this.scratch);
    const options: ScoreOptions = {
      config: this.config,
      params: this.params,
      rarity: this.rarityFn,
      nameIndexes: undefined,
      context,
      explain: false,
    };
    const view: NameView = { refs: [], forms: this.refForms, weak: this.refWeak };
    for (const c of this.candidates(prepared, scope)) {
      options.nameIndexes = c.names;
      view.refs = c.refs;
      const pe = this.entities[c.entity]!;
      const s = entityScore(prepared, pe, options, view);
      if (s && s.score > 0)
        ranked.push({
          e: c.entity,
          entity: pe.entity,
          score: s.score,
          nameIndex: s.nameIndex,
          twin: isTwinName(pe.names[s.nameIndex]!.name),
        });
    }
    ranked.sort(ownNamesFirst);
    const explainOptions: ScoreOptions = {
      config: this.config,
      params: this.params,
      rarity: this.rarityFn,
      nameIndexes: undefined,
      context,
    };
    return ranked.slice(0, limit).map((r) => {
      explainOptions.nameIndexes = [r.nameIndex];
      return scoreEntity(prepared, this.entities[r.e]!, explainOptions)!;
    });
  }

  /** Scores a query against every indexed entity (no retrieval); for tests and audits. */
  screenExhaustively(query: ScreeningQuery, limit = this.config.resultLimit): EntityMatch[] {
    const prepared = prepareQuery(query, this.rules);
    const matches: EntityMatch[] = [];
    const context = newCompareContext(this.scratch);
    for (const e of this.entities) {
      const m = scoreEntity(prepared, e, { config: this.config, params: this.params, rarity: this.rarityFn, context });
      if (m && m.score > 0) matches.push(m);
    }
    matches.sort((a, b) =>
      ownNamesFirst(
        { ...a, twin: a.qualifiers.some((q) => q.qualifier === 'twinName') },
        { ...b, twin: b.qualifiers.some((q) => q.qualifier === 'twinName') },
      ),
    );
    return matches.slice(0, limit);
  }
}

/** The k-th largest value (1-based) of the first `length` of `values`, which it reorders (quickselect). */
function kthLargest(values: Float64Array, length: number, k: number): number {
  let lo = 0;
  let hi = length - 1;
  const target = Math.min(k, length) - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! > pivot) i++;
      while (values[j]! < pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i] = values[j]!;
        values[j] = t;
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else break;
  }
  return values[target]!;
}

/**
 * At an equal score, a record matched on a name its own list publishes ranks before one matched
 * on a name borrowed from its twin (v3): the list that wrote the name comes first.
 */
function ownNamesFirst(
  a: Pick<EntityMatch, 'entity' | 'score'> & { twin: boolean },
  b: Pick<EntityMatch, 'entity' | 'score'> & { twin: boolean },
): number {
  return b.score - a.score || Number(a.twin) - Number(b.twin) || compareMatches(a, b);
}

export function compareMatches(
  a: Pick<EntityMatch, 'entity' | 'score'>,
  b: Pick<EntityMatch, 'entity' | 'score'>,
): number {
  return (
    b.score - a.score ||
    (a.entity.listId < b.entity.listId ? -1 : a.entity.listId > b.entity.listId ? 1 : 0) ||
    (a.entity.sourceId < b.entity.sourceId ? -1 : a.entity.sourceId > b.entity.sourceId ? 1 : 0)
  );
}
