import type { Entity } from '@vigil/lists';
import { resolveConfig, type MatchingConfig } from '../config.js';
import { wordFeatures, type NameToken } from '../name/analyze.js';
import { compareTokens, DEFAULT_NAME_PARAMS, newCompareContext, type NameParams, type Rarity } from '../name/compare.js';
import { prepareEntity, prepareQuery, scoreEntity, type EntityMatch, type PreparedEntity, type PreparedQuery, type ScreeningQuery } from '../match/score-entity.js';
import { trigrams } from '../similarity.js';

/** Token kinds that retrieve candidates; legal forms, particles and titles are too common to. */
const RETRIEVING = new Set(['word', 'number']);

const ABJAD = new Set(['Arab', 'Hebr']);

const JOINABLE = new Set(['word', 'particle', 'initial', 'stop']);

/** A name is scored only when its retrieval coverage is at least this share of its entity's best name. */
const NAME_COVERAGE_RATIO = 0.6;

export type Candidate = { entity: number; names: number[] };

/** Caps how many vocabulary terms one phonetic/skeleton bucket may expand a query token into. */
const BUCKET_SCAN_MAX = 3000;

export type IndexStats = {
  entities: number;
  names: number;
  terms: number;
  compounds: number;
  postings: number;
};

type Growing = Map<string, number[]>;

function push(map: Growing, key: string, value: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else if (list[list.length - 1] !== value) list.push(value);
}

function freeze(map: Growing): Map<string, Int32Array> {
  const out = new Map<string, Int32Array>();
  for (const [k, v] of map) out.set(k, Int32Array.from(v));
  return out;
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
  readonly config: MatchingConfig;
  readonly params: NameParams;
  private readonly entities: PreparedEntity[] = [];
  /** name ref → entity index and name index */
  private refEntity: Int32Array = new Int32Array(0);
  private refName: Int32Array = new Int32Array(0);
  private refLength: Uint8Array = new Uint8Array(0);
  private termPostings = new Map<string, Int32Array>();
  private compoundPostings = new Map<string, Int32Array>();
  private termList: string[] = [];
  private termIndex = new Map<string, number>();
  private termTokens: NameToken[] = [];
  private byPhonetic = new Map<string, Int32Array>();
  private byGroup = new Map<number, Int32Array>();
  private bySkeleton = new Map<string, Int32Array>();
  private byTrigram = new Map<string, Int32Array>();
  private termTrigramCount: Uint8Array = new Uint8Array(0);
  private logN = 1;
  private readonly rarityFn: Rarity;
  // scratch space reused across queries (single-threaded)
  private acc: Float64Array = new Float64Array(0);
  private stamp: Int32Array = new Int32Array(0);
  private seen: Int32Array = new Int32Array(0);
  private queryCounter = 0;
  private tokenCounter = 0;
  private termHits: Uint16Array = new Uint16Array(0);

  constructor(entities: Iterable<Entity>, config: Partial<MatchingConfig> = {}) {
    this.config = resolveConfig(config);
    this.params = { ...DEFAULT_NAME_PARAMS, levDistanceMax: this.config.levDistanceMax };
    this.rarityFn = (text) => this.rarity(text);
    this.build(entities);
  }

  private build(source: Iterable<Entity>): void {
    const termPostings: Growing = new Map();
    const compoundPostings: Growing = new Map();
    const refEntity: number[] = [];
    const refName: number[] = [];
    const refLength: number[] = [];
    const tokenOf = new Map<string, NameToken>();
    for (const entity of source) {
      const prepared = prepareEntity(entity);
      const ei = this.entities.length;
      this.entities.push(prepared);
      prepared.names.forEach((pn, ni) => {
        const ref = refEntity.length;
        refEntity.push(ei);
        refName.push(ni);
        refLength.push(Math.min(255, pn.analyzed.forms[0]?.tokens.length ?? 0));
        for (const form of pn.analyzed.forms) {
          const t = form.tokens;
          for (let i = 0; i < t.length; i++) {
            const tok = t[i]!;
            if (!RETRIEVING.has(tok.kind)) continue;
            push(termPostings, tok.text, ref);
            if (!tokenOf.has(tok.text)) tokenOf.set(tok.text, { ...tok, script: 'Latn' });
          }
          for (let i = 0; i + 1 < t.length; i++) {
            let text = t[i]!.text;
            if (!JOINABLE.has(t[i]!.kind)) continue;
            for (let k = 1; k <= 2 && i + k < t.length; k++) {
              const next = t[i + k]!;
              if (!JOINABLE.has(next.kind)) break;
              text += next.text;
              push(compoundPostings, text, ref);
            }
          }
        }
      });
    }
    this.refEntity = Int32Array.from(refEntity);
    this.refName = Int32Array.from(refName);
    this.refLength = Uint8Array.from(refLength);
    this.termPostings = freeze(termPostings);
    this.compoundPostings = freeze(compoundPostings);
    this.termList = [...this.termPostings.keys()].sort();
    this.termList.forEach((t, i) => this.termIndex.set(t, i));
    this.termTokens = this.termList.map((t) => tokenOf.get(t)!);
    const phon: Growing = new Map();
    const group: Growing = new Map();
    const skel: Growing = new Map();
    const tri: Growing = new Map();
    this.termTrigramCount = new Uint8Array(this.termList.length);
    this.termList.forEach((text, id) => {
      const tok = this.termTokens[id]!;
      if (tok.kind !== 'word') return;
      for (const code of tok.phonetic) push(phon, code, id);
      if (tok.group >= 0) push(group, String(tok.group), id);
      if (tok.skeleton) push(skel, tok.skeleton, id);
      const grams = trigrams(text);
      this.termTrigramCount[id] = Math.min(255, grams.length);
      for (const g of grams) push(tri, g, id);
    });
    this.byPhonetic = freeze(phon);
    this.bySkeleton = freeze(skel);
    this.byTrigram = freeze(tri);
    for (const [k, v] of freeze(group)) this.byGroup.set(Number(k), v);
    const n = this.refEntity.length;
    this.logN = Math.log(n + 1);
    for (const pe of this.entities) {
      for (const pn of pe.names) for (const form of pn.analyzed.forms) for (const t of form.tokens) if (t.kind === 'word' || t.kind === 'initial') t.rarity = this.rarity(t.text);
    }
    this.acc = new Float64Array(n);
    this.stamp = new Int32Array(n);
    this.seen = new Int32Array(n);
    this.termHits = new Uint16Array(this.termList.length);
  }

  stats(): IndexStats {
    let postings = 0;
    for (const p of this.termPostings.values()) postings += p.length;
    return { entities: this.entities.length, names: this.refEntity.length, terms: this.termList.length, compounds: this.compoundPostings.size, postings };
  }

  /** Informativeness of a token in [0, 1]: inverse document frequency over list names. */
  rarity(text: string): number {
    const p = this.termPostings.get(text);
    if (!p) return 1;
    return Math.max(0, Math.min(1, Math.log((this.refEntity.length + 1) / p.length) / this.logN));
  }

  /** Vocabulary terms a query token may stand for, with their token similarity. */
  private expand(tok: NameToken, fuzzy: boolean): Map<number, number> {
    const out = new Map<number, number>();
    const consider = (id: number) => {
      if (out.has(id)) return;
      const sim = compareTokens(tok, this.termTokens[id]!, this.params).score;
      if (sim > 0) out.set(id, sim);
    };
    const exact = this.termIndex.get(tok.text);
    if (exact !== undefined && tok.script === 'Latn') out.set(exact, 1);
    else if (exact !== undefined) consider(exact);
    if (tok.kind !== 'word') return out;
    if (tok.group >= 0) this.byGroup.get(tok.group)?.forEach(consider);
    for (const code of tok.phonetic) {
      const bucket = this.byPhonetic.get(code);
      if (bucket && bucket.length <= BUCKET_SCAN_MAX) bucket.forEach(consider);
    }
    if (ABJAD.has(tok.script) && tok.skeleton) {
      const bucket = this.bySkeleton.get(tok.skeleton);
      if (bucket && bucket.length <= BUCKET_SCAN_MAX) bucket.forEach(consider);
    }
    const grams = fuzzy ? trigrams(tok.text) : [];
    if (grams.length >= 3) {
      const touched: number[] = [];
      const hits = this.termHits;
      for (const g of grams) {
        const list = this.byTrigram.get(g);
        if (!list) continue;
        for (let k = 0; k < list.length; k++) {
          const id = list[k]!;
          if (hits[id] === 0) touched.push(id);
          hits[id]!++;
        }
      }
      const minHits = Math.max(1, this.config.trigramHitsMin);
      for (const id of touched) {
        const h = hits[id]!;
        hits[id] = 0;
        if (h < minHits) continue;
        const dice = (2 * h) / (grams.length + this.termTrigramCount[id]!);
        if (dice >= this.config.dbSimThreshold) consider(id);
      }
    }
    return out;
  }

  /** Retrieves candidate entities (and which of their names to score) for a prepared query, best first. */
  candidates(query: PreparedQuery): Candidate[] {
    this.queryCounter++;
    const touched: number[] = [];
    let bestCoverage = 0;
    for (const form of query.name.forms) {
      const tokens = form.tokens;
      const units: Array<{ tok: NameToken; compound: boolean }> = [];
      for (const t of tokens) if (RETRIEVING.has(t.kind)) units.push({ tok: t, compound: false });
      for (let i = 0; i + 1 < tokens.length; i++) {
        const a = tokens[i]!;
        if (!JOINABLE.has(a.kind)) continue;
        let text = a.text;
        for (let k = 1; k <= 2 && i + k < tokens.length; k++) {
          const b = tokens[i + k]!;
          if (!JOINABLE.has(b.kind)) break;
          text += b.text;
          const f = wordFeatures(text);
          units.push({ tok: { text, kind: 'word', script: a.script, phonetic: f.phonetic, skeleton: f.skeleton, group: f.group }, compound: true });
        }
      }
      let total = 0;
      for (const u of units) if (!u.compound) total += this.rarity(u.tok.text) * 0.65 + 0.35;
      if (total === 0) continue;
      for (const u of units) {
        const stampId = ++this.tokenCounter;
        const expansions: Array<[number, number, Int32Array]> = [];
        for (const [id, sim] of this.expand(u.tok, !u.compound)) {
          const text = this.termList[id]!;
          expansions.push([id, sim * (this.rarity(text) * 0.65 + 0.35), this.termPostings.get(text)!]);
        }
        if (!u.compound) {
          // list names that join what the query splits, or vice versa
          const joined = this.compoundPostings.get(u.tok.text);
          if (joined) expansions.push([-1, 1, joined]);
        }
        expansions.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
        for (const [, w, postings] of expansions) {
          for (let k = 0; k < postings.length; k++) {
            const ref = postings[k]!;
            if (this.stamp[ref] === stampId) continue;
            this.stamp[ref] = stampId;
            if (this.seen[ref] !== this.queryCounter) {
              this.seen[ref] = this.queryCounter;
              this.acc[ref] = 0;
              touched.push(ref);
            }
            this.acc[ref]! += w / total;
          }
        }
      }
    }
    // best coverage per entity, a little less for list names much longer or shorter than the query
    const queryLength = query.name.forms[0]?.tokens.length ?? 0;
    const perEntity = new Map<number, number>();
    const coverage = this.acc;
    for (const ref of touched) {
      const cov = coverage[ref]! - 0.03 * Math.abs(this.refLength[ref]! - queryLength);
      coverage[ref] = cov;
      if (cov > bestCoverage) bestCoverage = cov;
      const e = this.refEntity[ref]!;
      const prev = perEntity.get(e);
      if (prev === undefined || cov > prev) perEntity.set(e, cov);
    }
    const floor = Math.min(0.3, bestCoverage * 0.5);
    const ranked = [...perEntity].filter(([, cov]) => cov >= floor);
    ranked.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    const chosen = ranked.slice(0, this.config.candidateLimit);
    // only the names of each entity that the query actually reached, near its best one
    const names = new Map<number, number[]>();
    for (const [e] of chosen) names.set(e, []);
    for (const ref of touched) {
      const e = this.refEntity[ref]!;
      const list = names.get(e);
      if (list && coverage[ref]! >= perEntity.get(e)! * NAME_COVERAGE_RATIO) list.push(this.refName[ref]!);
    }
    return chosen.map(([e]) => ({ entity: e, names: names.get(e)!.sort((a, b) => a - b) }));
  }

  /** Screens one query: retrieve, score, sort (score desc, then list and source id). */
  screen(query: ScreeningQuery, limit = this.config.resultLimit): EntityMatch[] {
    const prepared = prepareQuery(query);
    const matches: EntityMatch[] = [];
    const context = newCompareContext();
    for (const c of this.candidates(prepared)) {
      const m = scoreEntity(prepared, this.entities[c.entity]!, { config: this.config, params: this.params, rarity: this.rarityFn, nameIndexes: c.names, context });
      if (m && m.score > 0) matches.push(m);
    }
    matches.sort(compareMatches);
    return matches.slice(0, limit);
  }

  /** Scores a query against every indexed entity (no retrieval); for tests and audits. */
  screenExhaustively(query: ScreeningQuery, limit = this.config.resultLimit): EntityMatch[] {
    const prepared = prepareQuery(query);
    const matches: EntityMatch[] = [];
    const context = newCompareContext();
    for (const e of this.entities) {
      const m = scoreEntity(prepared, e, { config: this.config, params: this.params, rarity: this.rarityFn, context });
      if (m && m.score > 0) matches.push(m);
    }
    matches.sort(compareMatches);
    return matches.slice(0, limit);
  }
}

export function compareMatches(a: EntityMatch, b: EntityMatch): number {
  return (
    b.score - a.score ||
    (a.entity.listId < b.entity.listId ? -1 : a.entity.listId > b.entity.listId ? 1 : 0) ||
    (a.entity.sourceId < b.entity.sourceId ? -1 : a.entity.sourceId > b.entity.sourceId ? 1 : 0)
  );
}
