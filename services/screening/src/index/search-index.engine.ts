import type { Entity } from '@vigil/lists';
import {
  DEFAULT_ALGORITHM,
  getAlgorithm,
  prepareEntity,
  prepareQuery,
  resolveConfig,
  scoreEntity,
  scoreParamsFor,
  type EngineRules,
  type MatchingConfig,
  type PreparedEntity,
  type ScreeningQuery,
} from '@vigil/matching';
import {
  EngineUnavailableError,
  emailMatch,
  mergeMatches,
  normaliseEmail,
  type CandidateIndex,
  type EngineHealth,
  type EngineMatch,
  type EngineName,
  type EngineQuery,
  type EngineScope,
  type PartitionInfo,
  type PartitionLoad,
} from './candidate-index.js';
import { fromEntityMatch } from './engine-match.js';
import { identifierMatch, queryIdentifierKey, withIdentifierEvidence } from './identifier-evidence.js';
import { NameRarity } from './name-rarity.js';
import type { SearchCluster } from './search-cluster.js';
import {
  KEY_EVIDENCE,
  entityDocument,
  fuzzyWords,
  indexTemplate,
  nameCandidateQuery,
  passesFuzzyThresholds,
  type EntityDocument,
} from './search-index.mapping.js';

/** Raised whenever entityDocument's fields change (2: identifiers, loose keys and name terms). */
const DOCUMENT_LAYOUT = 2;

export type SearchIndexEngineOptions = {
  url: string;
  prefix: string;
  matching?: Partial<MatchingConfig>;
  /** How long a replica waits for another one that is building the same version's index. */
  buildWaitMs?: number;
  /** How long another replica's build may stand still before this one drops it and builds the version itself. */
  buildStallMs?: number;
  requestTimeoutMs?: number;
};

type Partition = { info: PartitionInfo; index: string; rarity: NameRarity };

const BULK_CHUNK = 1000;
const PREPARED_CACHE_MAX = 20_000;

/**
 * A search cluster (OpenSearch or Elasticsearch) retrieves candidates; @vigil/matching scores
 * them with the same rarity the in-process index would use, so every engine ranks alike. Each
 * list version is its own index; the per-source alias flips to it atomically once it is
 * complete, and the replica then searches exactly the versions it reports (the previous index
 * is kept for replicas that have not caught up yet).
 */
export class SearchIndexEngine implements CandidateIndex {
  private readonly config: MatchingConfig;
  private readonly loaded = new Map<string, Partition>();
  private readonly prepared = new Map<string, PreparedEntity>();
  private templateReady: Promise<void> | undefined;
  /** Rarity over every loaded partition, as the in-process engine's single index computes it. */
  private rarity = NameRarity.combine([]);

  constructor(
    readonly engine: Exclude<EngineName, 'in-process'>,
    private readonly cluster: SearchCluster,
    private readonly options: SearchIndexEngineOptions,
  ) {
    this.config = resolveConfig(options.matching);
  }

  alias(source: string): string {
    return `${this.options.prefix}-${source}`;
  }

  /**
   * One index per list version and document layout: a release that changes what a document holds
   * (new fields such as identifiers) builds the version again instead of serving an index that
   * lacks them.
   */
  indexName(source: string, versionId: number): string {
    return `${this.alias(source)}-l${DOCUMENT_LAYOUT}-v${versionId}`;
  }

  private ensureTemplate(): Promise<void> {
    this.templateReady ??= this.cluster.putIndexTemplate(indexTemplate(this.options.prefix)).catch((error: unknown) => {
      this.templateReady = undefined;
      throw error;
    });
    return this.templateReady;
  }

  async load(loads: readonly PartitionLoad[]): Promise<void> {
    for (const { info, entities } of loads) await this.loadOne(info, entities);
    this.rarity = NameRarity.combine([...this.loaded.values()].map((p) => p.rarity));
  }

  private async loadOne(info: PartitionInfo, entities: readonly Entity[]): Promise<void> {
    await this.ensureTemplate();
    const index = this.indexName(info.source, info.versionId);
    const rarity = NameRarity.fromEntities(entities);
    for (;;) {
      if (await this.cluster.createIndex(index)) {
        await this.build(index, info, entities);
        break;
      }
      // Another replica is building this version, or one died building it: a stalled build is
      // dropped and this replica builds the version itself.
      if (await this.waitForBuild(index, entities.length)) break;
      await this.cluster.deleteIndices(index).catch(() => undefined);
    }
    await this.rollAlias(info.source, info.versionId);
    this.loaded.set(info.source, { info, index, rarity });
    this.prepared.clear();
  }

  /**
   * Fills a new version's index. The alias and this replica's searches stay on the previous
   * version until it is complete; if the cluster fails midway (a node stopped, a bulk refused)
   * the half-built index is dropped, so the next refresh builds it afresh instead of waiting on it.
   */
  private async build(index: string, info: PartitionInfo, entities: readonly Entity[]): Promise<void> {
    try {
      await this.cluster.putSettings(index, { refresh_interval: '-1' });
      for (let i = 0; i < entities.length; i += BULK_CHUNK) {
        const operations = entities
          .slice(i, i + BULK_CHUNK)
          .flatMap((e) => [
            { index: { _index: index, _id: `${info.source}:${e.sourceId}` } },
            entityDocument(info.source, info.feed, info.versionId, e),
          ]);
        const failure = await this.cluster.bulk(operations);
        if (failure !== undefined) throw new Error(`bulk indexing ${index} failed: ${failure}`);
      }
      await this.cluster.putSettings(index, { refresh_interval: '1s' });
      await this.cluster.refresh(index);
    } catch (error) {
      await this.cluster.deleteIndices(index).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Waits until another replica's build of `index` holds every document: true when it does,
   * false when its count has not moved for `buildStallMs` (its builder died and the cluster
   * could not be told to drop it). Throws after `buildWaitMs` in all.
   */
  private async waitForBuild(index: string, expected: number): Promise<boolean> {
    const deadline = Date.now() + (this.options.buildWaitMs ?? 300_000);
    const stallMs = this.options.buildStallMs ?? 60_000;
    let last = -1;
    let lastMoved = Date.now();
    for (;;) {
      await this.cluster.refresh(index).catch(() => undefined);
      const count = await this.cluster.count(index);
      if (count >= expected) return true;
      if (count !== last) [last, lastMoved] = [count, Date.now()];
      else if (Date.now() - lastMoved > stallMs) return false;
      if (Date.now() > deadline)
        throw new Error(`${index} holds ${count} of ${expected} documents after waiting; its builder may have died`);
      await new Promise((r) => setTimeout(r, Math.min(1000, stallMs / 4)));
    }
  }

  private versionOf(index: string): number {
    return Number(/-v(\d+)$/.exec(index)?.[1] ?? 0);
  }

  /** Points the source's alias at this version unless a newer one already holds it; drops versions older than the previous. */
  private async rollAlias(source: string, versionId: number): Promise<void> {
    const alias = this.alias(source);
    const index = this.indexName(source, versionId);
    const current = await this.cluster.aliasIndices(alias);
    if (current.some((i) => this.versionOf(i) > versionId)) return;
    if (!(current.length === 1 && current[0] === index)) {
      await this.cluster.updateAliases([
        ...current.map((i) => ({ remove: { index: i, alias } })),
        { add: { index, alias } },
      ]);
    }
    // Indices of an earlier layout were named `<alias>-v<version>`.
    const all = await this.cluster.indices(`${alias}-v*,${alias}-l*`).catch(() => []);
    const older = all
      .filter((i) => this.versionOf(i) < versionId)
      .sort((a, b) => this.versionOf(b) - this.versionOf(a))
      .slice(1);
    if (older.length > 0) await this.cluster.deleteIndices(older).catch(() => undefined);
  }

  async remove(source: string): Promise<void> {
    this.loaded.delete(source);
    this.rarity = NameRarity.combine([...this.loaded.values()].map((p) => p.rarity));
    this.prepared.clear();
    const alias = this.alias(source);
    const current = await this.cluster.aliasIndices(alias);
    if (current.length > 0) await this.cluster.updateAliases(current.map((i) => ({ remove: { index: i, alias } })));
  }

  partitions(): PartitionInfo[] {
    return [...this.loaded.values()].map((p) => p.info);
  }

  async screen(query: EngineQuery, scope: EngineScope): Promise<EngineMatch[]> {
    return (await this.screenMany([query], scope))[0]!;
  }

  async screenMany(queries: readonly EngineQuery[], scope: EngineScope): Promise<EngineMatch[][]> {
    const partitions = scope.sources.map((s) => this.loaded.get(s)).filter((p): p is Partition => p !== undefined);
    if (partitions.length === 0 || queries.length === 0) return queries.map(() => []);
    const indices = partitions.map((p) => p.index);
    const sources = partitions.map((p) => p.info.source);
    const size = Math.min(500, this.config.candidateLimit * partitions.length);
    // All five thresholds are the caller's, per query: DB_SIM_THRESHOLD and TRIGRAM_HITS_MIN
    // decide which entities are fuzzy candidates (in the query, then token against token below),
    // LEV_DISTANCE_MAX how the candidates score; HIGH_SCORE and MEDIUM_SCORE band the score.
    const config = scope.tunables ? resolveConfig({ ...this.config, ...scope.tunables }) : this.config;
    // Candidates come from the documents (the default algorithm's readings); a client pinned to an
    // older algorithm has them prepared and scored with its rules, as that algorithm would.
    const rules = getAlgorithm(scope.algorithm ?? DEFAULT_ALGORITHM).rules;
    const params = scoreParamsFor(rules, config);
    // One msearch for the whole batch: a name search and/or an email search per query.
    const searches: object[] = [];
    const plan: Array<{ query: number; kind: 'name' | 'email' | 'identifier' }> = [];
    const source = ['source', 'entity', 'name_terms'];
    queries.forEach((q, i) => {
      if (q.name) {
        const query = nameCandidateQuery(q.name, q.entityType, sources, config);
        searches.push({ index: indices }, { size, _source: source, query });
        plan.push({ query: i, kind: 'name' });
      }
      if (q.email) {
        const query = {
          bool: { filter: [{ terms: { source: sources } }, { term: { emails: normaliseEmail(q.email) } }] },
        };
        searches.push({ index: indices }, { size: 20, _source: source, query });
        plan.push({ query: i, kind: 'email' });
      }
      if (q.identifiers?.length) {
        const keys = q.identifiers.map(queryIdentifierKey);
        const query = { bool: { filter: [{ terms: { source: sources } }, { terms: { identifiers: keys } }] } };
        searches.push({ index: indices }, { size: 50, _source: source, query });
        plan.push({ query: i, kind: 'identifier' });
      }
    });
    let responses;
    try {
      responses = await this.cluster.msearch<Pick<EntityDocument, 'source' | 'entity' | 'name_terms'>>(searches);
    } catch (error) {
      throw new EngineUnavailableError(
        `${this.cluster.product} search failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const found: EngineMatch[][] = queries.map(() => []);
    const prepared = queries.map((q) => (q.name ? prepareQuery(this.toScreeningQuery(q), rules) : undefined));
    const words = queries.map((q) => (q.name ? fuzzyWords(q.name, q.entityType) : []));
    responses.forEach((response, k) => {
      const { query: qi, kind } = plan[k]!;
      if ('error' in response)
        throw new EngineUnavailableError(
          `${this.cluster.product} search failed: ${response.error.reason ?? response.error.type}`,
        );
      for (const hit of response.hits) {
        const doc = hit._source;
        if (!doc) continue;
        const partition = this.loaded.get(doc.source);
        if (!partition) continue;
        if (kind === 'email') {
          found[qi]!.push(emailMatch(doc.source, doc.entity, queries[qi]!.email!));
          continue;
        }
        if (kind === 'identifier') {
          for (const q of queries[qi]!.identifiers ?? []) {
            const hit = identifierMatch(doc.source, doc.entity, q);
            if (hit) found[qi]!.push(hit);
          }
          continue;
        }
        const matched = hit.matched_queries ?? [];
        if (!matched.includes(KEY_EVIDENCE) && !passesFuzzyThresholds(words[qi]!, matched, doc.name_terms, config))
          continue;
        // Scored with the rules the query and entity were prepared with and the caller's
        // LEV_DISTANCE_MAX. (Default-less params once meant vigil-v1's scoring of v2-prepared
        // names: eval:engines on dev-v2 gave 29.9% false alarms against 1.5%.)
        const entity = this.prepare(hit._index, doc, rules);
        const m = scoreEntity(prepared[qi]!, entity, { config, params, rarity: this.rarity.rarity });
        if (m && m.score > 0) found[qi]!.push(fromEntityMatch(doc.source, m));
      }
    });
    return found.map((matches, i) =>
      mergeMatches(withIdentifierEvidence(matches, queries[i]!.identifiers), scope.limit),
    );
  }

  private toScreeningQuery(q: EngineQuery): ScreeningQuery {
    return {
      name: q.name ?? '',
      ...(q.dob ? { dob: q.dob } : {}),
      ...(q.country ? { country: q.country } : {}),
      ...(q.entityType ? { entityType: q.entityType } : {}),
    };
  }

  private prepare(index: string, doc: Pick<EntityDocument, 'source' | 'entity'>, rules: EngineRules): PreparedEntity {
    const key = `${rules.name}/${index}/${doc.entity.sourceId}`;
    let prepared = this.prepared.get(key);
    if (!prepared) {
      prepared = prepareEntity(doc.entity, rules);
      if (this.prepared.size >= PREPARED_CACHE_MAX) this.prepared.delete(this.prepared.keys().next().value!);
      this.prepared.set(key, prepared);
    }
    return prepared;
  }

  async health(): Promise<EngineHealth> {
    try {
      await this.cluster.ping();
      return { up: true, detail: `${this.loaded.size} partitions on ${this.cluster.product} at ${this.options.url}` };
    } catch (error) {
      return {
        up: false,
        detail: `${this.cluster.product} unreachable: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }

  /** Deletes every index and alias of this prefix; for tests. */
  async destroyAll(): Promise<void> {
    await this.cluster.deleteIndices(`${this.options.prefix}-*`).catch(() => undefined);
    await this.cluster.deleteIndexTemplate(`${this.options.prefix}-entities`).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.loaded.clear();
    await this.cluster.close();
  }
}
