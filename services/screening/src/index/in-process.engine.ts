import type { Entity } from '@vigil/lists';
import {
  CandidateIndex as MatchingIndex,
  DEFAULT_ALGORITHM,
  getAlgorithm,
  resolveConfig,
  type MatchingConfig,
  type ScreeningQuery,
} from '@vigil/matching';
import {
  emailMatch,
  entityEmails,
  mergeMatches,
  normaliseEmail,
  type CandidateIndex,
  type EngineHealth,
  type EngineMatch,
  type EngineQuery,
  type EngineScope,
  type PartitionInfo,
  type PartitionLoad,
} from './candidate-index.js';
import { fromEntityMatch } from './engine-match.js';
import {
  entityIdentifierKeys,
  identifierMatch,
  queryIdentifierKey,
  withIdentifierEvidence,
} from './identifier-evidence.js';
import { IndexWorkerPool, type WireMatch } from './index-workers.js';

export type Built = {
  /** Tells a build from the one it replaces, so index workers answer from the same lists as this thread. */
  generation: number;
  partitions: Map<string, PartitionLoad>;
  /** Partition number by source, in the order the index was built. */
  numbers: Map<string, number>;
  index: MatchingIndex;
  /** Partition number of each entity, in index order. */
  partitionOf: Uint16Array;
  /** Entity masks by allowed partitions ("0,3,4"); undefined when every partition is allowed. */
  scopeMasks: Map<string, Uint8Array | undefined>;
  /** Every entity, in index order: workers name a matched entity by its position here. */
  all: Entity[];
  sourceOf: WeakMap<Entity, string>;
  positionOf: WeakMap<Entity, number>;
  byEmail: Map<string, Array<{ source: string; entity: Entity }>>;
  /** Exact identifier index: `scheme:normalised value` → the entities listing it. */
  byIdentifier: Map<string, Array<{ source: string; entity: Entity }>>;
  config: MatchingConfig;
  /**
   * Indexes of the older algorithms clients are pinned to, over the same entities: each is built
   * on the first screen that asks for it and again with every later build, so only the first
   * such screen after a start waits for a build. A deployment with no pinned client holds none.
   */
  pinned: Map<string, MatchingIndex>;
};

/** Builds one index over `partitions`; deterministic, so a worker given the same loads builds the same index. */
export function buildIndex(partitions: Map<string, PartitionLoad>, config: MatchingConfig, generation: number): Built {
  const numbers = new Map<string, number>();
  const all: Entity[] = [];
  const partitionOf: number[] = [];
  const sourceOf = new WeakMap<Entity, string>();
  const positionOf = new WeakMap<Entity, number>();
  const byEmail = new Map<string, Array<{ source: string; entity: Entity }>>();
  const byIdentifier = new Map<string, Array<{ source: string; entity: Entity }>>();
  for (const [source, load] of [...partitions].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const n = numbers.size;
    numbers.set(source, n);
    for (const entity of load.entities) {
      positionOf.set(entity, all.length);
      all.push(entity);
      partitionOf.push(n);
      sourceOf.set(entity, source);
      for (const email of entityEmails(entity)) byEmail.set(email, [...(byEmail.get(email) ?? []), { source, entity }]);
      for (const key of entityIdentifierKeys(entity)) {
        const listed = byIdentifier.get(key);
        if (listed) listed.push({ source, entity });
        else byIdentifier.set(key, [{ source, entity }]);
      }
    }
  }
  const index = new MatchingIndex(all, config);
  return {
    generation,
    partitions,
    numbers,
    index,
    partitionOf: Uint16Array.from(partitionOf),
    scopeMasks: new Map(),
    all,
    sourceOf,
    positionOf,
    byEmail,
    byIdentifier,
    config,
    pinned: new Map(),
  };
}

/** The index a scope's algorithm screens with: the default one, or the pinned algorithm's (built on first use). */
function indexFor(built: Built, algorithm: string | undefined): MatchingIndex {
  if (algorithm === undefined || algorithm === DEFAULT_ALGORITHM) return built.index;
  let index = built.pinned.get(algorithm);
  if (!index) {
    index = new MatchingIndex(built.all, built.config, getAlgorithm(algorithm).rules);
    built.pinned.set(algorithm, index);
  }
  return index;
}

/** Scopes are tiers' feed sets, so there are few: each gets its entity mask once per build. */
const SCOPE_MASKS_MAX = 64;

function entityMask(built: Built, partitions: readonly number[]): Uint8Array | undefined {
  const key = partitions.join(',');
  if (built.scopeMasks.has(key)) return built.scopeMasks.get(key);
  let mask: Uint8Array | undefined;
  if (partitions.length < built.numbers.size) {
    const allowed = new Uint8Array(built.numbers.size);
    for (const n of partitions) allowed[n] = 1;
    mask = new Uint8Array(built.partitionOf.length);
    for (let e = 0; e < mask.length; e++) mask[e] = allowed[built.partitionOf[e]!]!;
  }
  if (built.scopeMasks.size >= SCOPE_MASKS_MAX) built.scopeMasks.clear();
  built.scopeMasks.set(key, mask);
  return mask;
}

/** Screens one query against a build, within the scope's sources only. */
export function screenBuilt(built: Built, query: EngineQuery, scope: EngineScope): EngineMatch[] {
  const allowed = new Set<string>();
  const numbers: number[] = [];
  for (const source of scope.sources) {
    const n = built.numbers.get(source);
    if (n === undefined || allowed.has(source)) continue;
    numbers.push(n);
    allowed.add(source);
  }
  if (allowed.size === 0) return [];
  const found: EngineMatch[] = [];
  if (query.name) {
    const nameQuery: ScreeningQuery = {
      name: query.name,
      ...(query.dob ? { dob: query.dob } : {}),
      ...(query.country ? { country: query.country } : {}),
      ...(query.entityType ? { entityType: query.entityType } : {}),
    };
    // Retrieval itself is scoped, so a narrow scope's candidates are not crowded out by entities it may not see.
    const mask = entityMask(
      built,
      numbers.sort((a, b) => a - b),
    );
    for (const m of indexFor(built, scope.algorithm).screen(nameQuery, scope.limit, mask, scope.tunables)) {
      const source = built.sourceOf.get(m.entity);
      // Scoping happens in retrieval; this check keeps a change there from ever leaking a feed.
      if (source !== undefined && allowed.has(source)) found.push(fromEntityMatch(source, m));
    }
  }
  if (query.email) {
    for (const { source, entity } of built.byEmail.get(normaliseEmail(query.email)) ?? []) {
      if (allowed.has(source)) found.push(emailMatch(source, entity, query.email));
    }
  }
  for (const q of query.identifiers ?? []) {
    for (const { source, entity } of built.byIdentifier.get(queryIdentifierKey(q)) ?? []) {
      const hit = allowed.has(source) ? identifierMatch(source, entity, q) : undefined;
      if (hit) found.push(hit);
    }
  }
  return mergeMatches(withIdentifierEvidence(found, query.identifiers), scope.limit);
}

/** screenBuilt for a bulk chunk, in the shape that crosses threads: each entity by its position in the build. */
export function screenToWire(built: Built, queries: readonly EngineQuery[], scope: EngineScope): WireMatch[][] {
  return queries.map((query) =>
    screenBuilt(built, query, scope).map(({ entity, ...match }): WireMatch => ({
      ...match,
      position: built.positionOf.get(entity)!,
    })),
  );
}

/** Below this many names a bulk request is screened on this thread: handing it to workers costs more than it saves. */
const WORKER_MIN_BATCH = 32;

/**
 * The default engine: one @vigil/matching in-memory index over all loaded list versions,
 * built from the entities Postgres holds, with per-query source scoping. A load builds the
 * new index beside the old one and swaps it in with one assignment, so screens never see a
 * half-built index; the old one keeps answering until then. One index (rather than one per
 * source) keeps token rarity and candidate ranking as the matching core's evaluation
 * measures them, and costs one retrieval per query instead of one per source.
 *
 * With index workers (`workers` > 0), each worker thread holds a copy of the same build and
 * bulk requests are split across them: single screens stay on this thread (no hand-off
 * latency) while bulk uses the other cores and never blocks the event loop for seconds.
 */
export class InProcessEngine implements CandidateIndex {
  readonly engine = 'in-process' as const;
  private readonly config: MatchingConfig;
  private built: Built | null = null;
  private generation = 0;
  private readonly pool: IndexWorkerPool | null;

  constructor(config: Partial<MatchingConfig> = {}, options: { workers?: number } = {}) {
    this.config = resolveConfig(config);
    this.pool = options.workers
      ? new IndexWorkerPool(options.workers, config, (generation, queries, scope) =>
          this.screenLocally(generation, queries, scope),
        )
      : null;
  }

  async load(loads: readonly PartitionLoad[]): Promise<void> {
    const partitions = new Map(this.built?.partitions ?? []);
    for (const load of loads) partitions.set(load.info.source, load);
    await this.swap(partitions);
  }

  async remove(source: string): Promise<void> {
    if (!this.built?.partitions.has(source)) return;
    const partitions = new Map(this.built.partitions);
    partitions.delete(source);
    await this.swap(partitions);
  }

  /** Builds here and in every worker (in parallel), then serves the new build everywhere at once. */
  private async swap(partitions: Map<string, PartitionLoad>): Promise<void> {
    if (partitions.size === 0) {
      this.built = null;
      return;
    }
    const generation = ++this.generation;
    const workersBuilt = this.pool?.load(generation, partitions);
    const built = buildIndex(partitions, this.config, generation);
    // Algorithms clients are pinned to keep their index across list refreshes.
    for (const algorithm of this.built?.pinned.keys() ?? []) indexFor(built, algorithm);
    // A worker that failed to build is restarted by the pool; bulk falls back to this thread meanwhile.
    await workersBuilt?.catch(() => undefined);
    this.built = built;
    this.pool?.retire(generation);
  }

  partitions(): PartitionInfo[] {
    return [...(this.built?.partitions.values() ?? [])].map((p) => p.info);
  }

  async screen(query: EngineQuery, scope: EngineScope): Promise<EngineMatch[]> {
    return this.built ? screenBuilt(this.built, query, scope) : [];
  }

  async screenMany(queries: readonly EngineQuery[], scope: EngineScope): Promise<EngineMatch[][]> {
    const built = this.built;
    if (!built) return queries.map(() => []);
    // Workers hold the default algorithm's index only: a pinned client's bulk is screened here.
    const pinned = scope.algorithm !== undefined && scope.algorithm !== DEFAULT_ALGORITHM;
    if (this.pool && !pinned && queries.length >= WORKER_MIN_BATCH) {
      const found = await this.pool.screenMany(built.generation, queries, scope).catch(() => null);
      // Workers name entities by position in the same build; this thread holds the same objects.
      if (found)
        return found.map((matches) => matches.map(({ position, ...m }) => ({ ...m, entity: built.all[position]! })));
    }
    return queries.map((q) => screenBuilt(built, q, scope));
  }

  /** A bulk chunk on this thread, in the workers' reply shape; null when `generation` is not the build served. */
  private screenLocally(generation: number, queries: readonly EngineQuery[], scope: EngineScope): WireMatch[][] | null {
    const built = this.built;
    if (!built || built.generation !== generation) return null;
    return screenToWire(built, queries, scope);
  }

  async health(): Promise<EngineHealth> {
    return { up: true, detail: `${this.built?.partitions.size ?? 0} sources in memory` };
  }

  async close(): Promise<void> {
    this.built = null;
    await this.pool?.close();
  }
}
