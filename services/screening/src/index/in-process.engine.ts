import type { Entity } from '@vigil/lists';
import { CandidateIndex as MatchingIndex, resolveConfig, type MatchingConfig, type ScreeningQuery } from '@vigil/matching';
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
} from './candidate-index.js';
import { fromEntityMatch } from './engine-match.js';

type Partition = {
  info: PartitionInfo;
  index: MatchingIndex;
  byEmail: Map<string, Entity[]>;
};

/**
 * The default engine: one @vigil/matching in-memory index per source, built from the
 * entities Postgres holds. A new version is built beside the old one and swapped in with
 * one assignment, so screens never see a half-built partition.
 */
export class InProcessEngine implements CandidateIndex {
  readonly engine = 'in-process' as const;
  private readonly config: MatchingConfig;
  private readonly loaded = new Map<string, Partition>();

  constructor(config: Partial<MatchingConfig> = {}) {
    this.config = resolveConfig(config);
  }

  async load(info: PartitionInfo, entities: readonly Entity[]): Promise<void> {
    const index = new MatchingIndex(entities, this.config);
    const byEmail = new Map<string, Entity[]>();
    for (const entity of entities) {
      for (const email of entityEmails(entity)) byEmail.set(email, [...(byEmail.get(email) ?? []), entity]);
    }
    this.loaded.set(info.source, { info, index, byEmail });
  }

  async remove(source: string): Promise<void> {
    this.loaded.delete(source);
  }

  partitions(): PartitionInfo[] {
    return [...this.loaded.values()].map((p) => p.info);
  }

  async screen(query: EngineQuery, scope: EngineScope): Promise<EngineMatch[]> {
    return this.screenOne(query, scope);
  }

  async screenMany(queries: readonly EngineQuery[], scope: EngineScope): Promise<EngineMatch[][]> {
    return queries.map((q) => this.screenOne(q, scope));
  }

  private screenOne(query: EngineQuery, scope: EngineScope): EngineMatch[] {
    const found: EngineMatch[] = [];
    const nameQuery: ScreeningQuery | undefined = query.name
      ? { name: query.name, ...(query.dob ? { dob: query.dob } : {}), ...(query.country ? { country: query.country } : {}), ...(query.entityType ? { entityType: query.entityType } : {}) }
      : undefined;
    for (const source of scope.sources) {
      const partition = this.loaded.get(source);
      if (!partition) continue;
      if (nameQuery) for (const m of partition.index.screen(nameQuery, scope.limit)) found.push(fromEntityMatch(source, m));
      if (query.email) for (const e of partition.byEmail.get(normaliseEmail(query.email)) ?? []) found.push(emailMatch(source, e, query.email));
    }
    return mergeMatches(found, scope.limit);
  }

  async health(): Promise<EngineHealth> {
    return { up: true, detail: `${this.loaded.size} partitions in memory` };
  }

  async close(): Promise<void> {
    this.loaded.clear();
  }
}
