import { Client, errors } from '@elastic/elasticsearch';
import type { Entity } from '@vigil/lists';
import {
  DEFAULT_NAME_PARAMS,
  prepareEntity,
  prepareQuery,
  resolveConfig,
  scoreEntity,
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
  type EngineQuery,
  type EngineScope,
  type PartitionInfo,
  type PartitionLoad,
} from './candidate-index.js';
import { fromEntityMatch } from './engine-match.js';
import { entityDocument, indexTemplate, nameCandidateQuery, type EntityDocument } from './elasticsearch.mapping.js';
import { NameRarity } from './name-rarity.js';

export type ElasticsearchEngineOptions = {
  url: string;
  prefix: string;
  matching?: Partial<MatchingConfig>;
  /** How long a replica waits for another one that is building the same version's index. */
  buildWaitMs?: number;
  requestTimeoutMs?: number;
};

type Partition = { info: PartitionInfo; index: string; rarity: NameRarity };

const BULK_CHUNK = 1000;
const PREPARED_CACHE_MAX = 20_000;

/**
 * Elasticsearch retrieves candidates; @vigil/matching scores them with the same rarity
 * the in-process index would use, so both engines rank alike. Each list version is its own
 * index; the per-source alias flips to it atomically once it is complete, and the replica
 * then searches exactly the versions it reports (the previous index is kept for replicas
 * that have not caught up yet).
 */
export class ElasticsearchEngine implements CandidateIndex {
  readonly engine = 'elasticsearch' as const;
  private readonly client: Client;
  private readonly config: MatchingConfig;
  private readonly loaded = new Map<string, Partition>();
  private readonly prepared = new Map<string, PreparedEntity>();
  private templateReady: Promise<void> | undefined;
  /** Rarity over every loaded partition, as the in-process engine's single index computes it. */
  private rarity = NameRarity.combine([]);

  constructor(private readonly options: ElasticsearchEngineOptions) {
    this.client = new Client({ node: options.url, requestTimeout: options.requestTimeoutMs ?? 10_000, maxRetries: 1 });
    this.config = resolveConfig(options.matching);
  }

  alias(source: string): string {
    return `${this.options.prefix}-${source}`;
  }

  indexName(source: string, versionId: number): string {
    return `${this.alias(source)}-v${versionId}`;
  }

  private ensureTemplate(): Promise<void> {
    this.templateReady ??= this.client.indices
      .putIndexTemplate(indexTemplate(this.options.prefix))
      .then(() => undefined)
      .catch((error: unknown) => {
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
    let created = false;
    try {
      await this.client.indices.create({ index });
      created = true;
    } catch (error) {
      if (!(error instanceof errors.ResponseError && error.body?.error?.type === 'resource_already_exists_exception')) throw error;
    }
    if (created) {
      await this.client.indices.putSettings({ index, settings: { refresh_interval: '-1' } });
      for (let i = 0; i < entities.length; i += BULK_CHUNK) {
        const operations = entities
          .slice(i, i + BULK_CHUNK)
          .flatMap((e) => [{ index: { _index: index, _id: `${info.source}:${e.sourceId}` } }, entityDocument(info.source, info.feed, info.versionId, e)]);
        const result = await this.client.bulk({ operations, refresh: false });
        if (result.errors) {
          const first = result.items.find((item) => item.index?.error)?.index?.error;
          throw new Error(`bulk indexing ${index} failed: ${first?.reason ?? 'unknown error'}`);
        }
      }
      await this.client.indices.putSettings({ index, settings: { refresh_interval: '1s' } });
      await this.client.indices.refresh({ index });
    } else {
      await this.waitForCount(index, entities.length);
    }
    await this.rollAlias(info.source, info.versionId);
    this.loaded.set(info.source, { info, index, rarity });
    this.prepared.clear();
  }

  /** Another replica is building this version: wait until every document is searchable. */
  private async waitForCount(index: string, expected: number): Promise<void> {
    const deadline = Date.now() + (this.options.buildWaitMs ?? 300_000);
    for (;;) {
      await this.client.indices.refresh({ index }).catch(() => undefined);
      const { count } = await this.client.count({ index });
      if (count >= expected) return;
      if (Date.now() > deadline) throw new Error(`${index} holds ${count} of ${expected} documents after waiting; its builder may have died`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  private versionOf(index: string): number {
    return Number(/-v(\d+)$/.exec(index)?.[1] ?? 0);
  }

  private async aliasIndices(alias: string): Promise<string[]> {
    try {
      return Object.keys(await this.client.indices.getAlias({ name: alias }));
    } catch (error) {
      if (error instanceof errors.ResponseError && error.statusCode === 404) return [];
      throw error;
    }
  }

  /** Points the source's alias at this version unless a newer one already holds it; drops versions older than the previous. */
  private async rollAlias(source: string, versionId: number): Promise<void> {
    const alias = this.alias(source);
    const index = this.indexName(source, versionId);
    const current = await this.aliasIndices(alias);
    if (current.some((i) => this.versionOf(i) > versionId)) return;
    if (!(current.length === 1 && current[0] === index)) {
      await this.client.indices.updateAliases({
        actions: [...current.map((i) => ({ remove: { index: i, alias } })), { add: { index, alias } }],
      });
    }
    const all = await this.client.indices.get({ index: `${alias}-v*`, expand_wildcards: 'open' }).catch(() => ({}));
    const older = Object.keys(all)
      .filter((i) => this.versionOf(i) < versionId)
      .sort((a, b) => this.versionOf(b) - this.versionOf(a))
      .slice(1);
    if (older.length > 0) await this.client.indices.delete({ index: older }).catch(() => undefined);
  }

  async remove(source: string): Promise<void> {
    this.loaded.delete(source);
    this.rarity = NameRarity.combine([...this.loaded.values()].map((p) => p.rarity));
    this.prepared.clear();
    const alias = this.alias(source);
    const current = await this.aliasIndices(alias);
    if (current.length > 0) await this.client.indices.updateAliases({ actions: current.map((i) => ({ remove: { index: i, alias } })) });
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
    // One msearch for the whole batch: a name search and/or an email search per query.
    const searches: object[] = [];
    const plan: Array<{ query: number; kind: 'name' | 'email' }> = [];
    queries.forEach((q, i) => {
      if (q.name) {
        searches.push({ index: indices }, { size, _source: ['source', 'entity'], query: nameCandidateQuery(q.name, q.entityType, sources) });
        plan.push({ query: i, kind: 'name' });
      }
      if (q.email) {
        searches.push({ index: indices }, { size: 20, _source: ['source', 'entity'], query: { bool: { filter: [{ terms: { source: sources } }, { term: { emails: normaliseEmail(q.email) } }] } } });
        plan.push({ query: i, kind: 'email' });
      }
    });
    let responses;
    try {
      responses = (await this.client.msearch<Pick<EntityDocument, 'source' | 'entity'>>({ searches: searches as never })).responses;
    } catch (error) {
      throw new EngineUnavailableError(`Elasticsearch search failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    const found: EngineMatch[][] = queries.map(() => []);
    const prepared = queries.map((q) => (q.name ? prepareQuery(this.toScreeningQuery(q)) : undefined));
    // The caller's thresholds score the candidates; Elasticsearch's own fuzziness retrieves them,
    // so DB_SIM_THRESHOLD and TRIGRAM_HITS_MIN (in-process retrieval knobs) do not apply here.
    const config = scope.tunables ? resolveConfig({ ...this.config, ...scope.tunables }) : this.config;
    const params = { ...DEFAULT_NAME_PARAMS, levDistanceMax: config.levDistanceMax };
    responses.forEach((response, k) => {
      const { query: qi, kind } = plan[k]!;
      if ('error' in response) throw new EngineUnavailableError(`Elasticsearch search failed: ${response.error.reason ?? response.error.type}`);
      for (const hit of response.hits.hits) {
        const doc = hit._source;
        if (!doc) continue;
        const partition = this.loaded.get(doc.source);
        if (!partition) continue;
        if (kind === 'email') {
          found[qi]!.push(emailMatch(doc.source, doc.entity, queries[qi]!.email!));
          continue;
        }
        const m = scoreEntity(prepared[qi]!, this.prepare(hit._index, doc), {
          config,
          params,
          rarity: this.rarity.rarity,
        });
        if (m && m.score > 0) found[qi]!.push(fromEntityMatch(doc.source, m));
      }
    });
    return found.map((matches) => mergeMatches(matches, scope.limit));
  }

  private toScreeningQuery(q: EngineQuery): ScreeningQuery {
    return { name: q.name ?? '', ...(q.dob ? { dob: q.dob } : {}), ...(q.country ? { country: q.country } : {}), ...(q.entityType ? { entityType: q.entityType } : {}) };
  }

  private prepare(index: string, doc: Pick<EntityDocument, 'source' | 'entity'>): PreparedEntity {
    const key = `${index}/${doc.entity.sourceId}`;
    let prepared = this.prepared.get(key);
    if (!prepared) {
      prepared = prepareEntity(doc.entity);
      if (this.prepared.size >= PREPARED_CACHE_MAX) this.prepared.delete(this.prepared.keys().next().value!);
      this.prepared.set(key, prepared);
    }
    return prepared;
  }

  async health(): Promise<EngineHealth> {
    try {
      await this.client.ping();
      return { up: true, detail: `${this.loaded.size} partitions on ${this.options.url}` };
    } catch (error) {
      return { up: false, detail: `Elasticsearch unreachable: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  /** Deletes every index and alias of this prefix; for tests. */
  async destroyAll(): Promise<void> {
    await this.client.indices.delete({ index: `${this.options.prefix}-*`, expand_wildcards: 'all' }).catch(() => undefined);
    await this.client.indices.deleteIndexTemplate({ name: `${this.options.prefix}-entities` }).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.loaded.clear();
    await this.client.close();
  }
}
