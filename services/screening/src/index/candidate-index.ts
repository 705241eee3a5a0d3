import type { Entity, EntityName, EntityType } from '@vigil/lists';
import type { QueryTunables } from '@vigil/matching';
import type { Feed, INDEX_ENGINES } from '@vigil/proto';
import type { IdentifierQuery } from './identifier-evidence.js';

// The seam between the screening service and a search engine. Three engines implement it:
// the in-process one (default; @vigil/matching's in-memory index), and one search-index engine
// over OpenSearch or Elasticsearch. All return candidates scored by the same @vigil/matching scorer, so a result does not depend
// on the engine that retrieved it. A source is one partition: screening a feed set means
// asking only the partitions of those feeds, which is how feed entitlements are enforced.

export type EngineName = (typeof INDEX_ENGINES)[number];

/** One loaded list version of one source. */
export type PartitionInfo = {
  source: string;
  feed: Feed;
  dataset: string;
  versionId: number;
  sha256: string;
  fetchedAt: string;
  entityCount: number;
};

export type PartitionLoad = { info: PartitionInfo; entities: readonly Entity[] };

export type EngineQuery = {
  name?: string;
  email?: string;
  /** YYYY, YYYY-MM or YYYY-MM-DD */
  dob?: string;
  /** ISO-2 code or English country name */
  country?: string;
  entityType?: EntityType;
  /** Identifiers looked up exactly (scheme and normalised value); they also weigh on name matches. */
  identifiers?: readonly IdentifierQuery[];
};

export type EngineTokenMatch = { query: string[]; list: string[]; method: string; score: number; weight: number };
export type EngineQualifier = { qualifier: string; effect: number; detail: string };

/** A scored candidate: everything a result and its explanation need. */
export type EngineMatch = {
  source: string;
  entity: Entity;
  score: number;
  matchedOn: 'name' | 'email' | 'identifier';
  matchedName: string;
  matchedStrength: EntityName['strength'];
  nameScore: number;
  queryScheme: string;
  listScheme: string;
  tokens: EngineTokenMatch[];
  unmatchedList: string[];
  qualifiers: EngineQualifier[];
};

export type EngineScope = {
  /** The partitions to search; nothing outside them may be returned. */
  sources: readonly string[];
  limit: number;
  /** The caller's thresholds for this query (absent: the engine's defaults). */
  tunables?: QueryTunables;
  /** The algorithm the client is pinned to (absent: the default); a registered, selectable name. */
  algorithm?: string;
};

export type EngineHealth = { up: boolean; detail?: string };

export type CandidateIndex = {
  readonly engine: EngineName;
  /**
   * Makes each given partition the version its source answers from. The previous versions
   * keep answering until this resolves (zero-downtime rollover). Loading several sources in
   * one call lets an engine build once for all of them.
   */
  load(partitions: readonly PartitionLoad[]): Promise<void>;
  /** Stops answering from a source. */
  remove(source: string): Promise<void>;
  /** Sources currently answering, with their versions. */
  partitions(): PartitionInfo[];
  screen(query: EngineQuery, scope: EngineScope): Promise<EngineMatch[]>;
  /** Many queries against the same scope; engines may batch them. */
  screenMany(queries: readonly EngineQuery[], scope: EngineScope): Promise<EngineMatch[][]>;
  health(): Promise<EngineHealth>;
  close(): Promise<void>;
};

/** The engine cannot answer (down, or not loaded): callers must not turn this into "no match". */
export class EngineUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineUnavailableError';
  }
}

export const entityId = (source: string, sourceId: string) => `${source}:${sourceId}`;

/** Best first; ties by source then source id, so results are deterministic across engines. */
export function compareEngineMatches(a: EngineMatch, b: EngineMatch): number {
  return (
    b.score - a.score ||
    (a.source < b.source ? -1 : a.source > b.source ? 1 : 0) ||
    (a.entity.sourceId < b.entity.sourceId ? -1 : a.entity.sourceId > b.entity.sourceId ? 1 : 0)
  );
}

/** Keeps each entity once (its best match), best first, at most `limit`. */
export function mergeMatches(matches: EngineMatch[], limit: number): EngineMatch[] {
  const best = new Map<string, EngineMatch>();
  for (const m of matches) {
    const key = entityId(m.source, m.entity.sourceId);
    const seen = best.get(key);
    // At equal scores an identifier hit is the better explanation than a name match.
    const better =
      !seen || compareEngineMatches(m, seen) < 0 || (m.score === seen.score && m.matchedOn === 'identifier');
    if (better) best.set(key, m);
  }
  return [...best.values()].sort(compareEngineMatches).slice(0, limit);
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** Email addresses an entity lists among its identifiers. */
export function entityEmails(entity: Entity): string[] {
  return entity.identifiers
    .filter((i) => i.type === 'email' && i.value.includes('@'))
    .map((i) => normaliseEmail(i.value));
}

/** An exact email hit: the strongest evidence a list gives, scored 1. */
export function emailMatch(source: string, entity: Entity, email: string): EngineMatch {
  const primary = entity.names[0];
  return {
    source,
    entity,
    score: 1,
    matchedOn: 'email',
    matchedName: primary?.full ?? '',
    matchedStrength: primary?.strength ?? 'primary',
    nameScore: 0,
    queryScheme: 'email',
    listScheme: 'email',
    tokens: [],
    unmatchedList: [],
    qualifiers: [
      { qualifier: 'email', effect: 0, detail: `email address ${normaliseEmail(email)} is listed on the entity` },
    ],
  };
}
