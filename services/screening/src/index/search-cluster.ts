import type { IndexTemplate } from './search-index.mapping.js';

// What the search-index engine asks of a search cluster, in the cluster's own REST terms and
// nothing more. Elasticsearch and OpenSearch answer the same requests but need their own
// clients: Elastic's 8.x client refuses any server but Elastic's (its product check), and
// OpenSearch's client wraps every request and response in `body`. Each adapter is a thin
// translation; the engine's logic (rollover, batching, scoring) is written once.

/** `matched_queries`: the names of the named clauses the hit matched. */
export type SearchHit<T> = { _index: string; _source?: T; matched_queries?: string[] };

/** One answer of a multi-search: its hits, or the error that search alone met. */
export type SearchResult<T> = { hits: SearchHit<T>[] } | { error: { type: string; reason?: string } };

export type AliasAction = { add: { index: string; alias: string } } | { remove: { index: string; alias: string } };

export type SearchCluster = {
  /** "Elasticsearch" or "OpenSearch", for messages. */
  readonly product: string;
  readonly url: string;
  putIndexTemplate(template: IndexTemplate): Promise<void>;
  /** False when the index already exists (another replica is building it). */
  createIndex(index: string): Promise<boolean>;
  putSettings(index: string, settings: Record<string, unknown>): Promise<void>;
  /** Bulk operations (action line, document, …) without a refresh; the first failure's reason, if any. */
  bulk(operations: object[]): Promise<string | undefined>;
  refresh(index: string): Promise<void>;
  count(index: string): Promise<number>;
  /** The indices an alias points at; none when the alias does not exist. */
  aliasIndices(alias: string): Promise<string[]>;
  /** All the actions at once: a search sees the alias before or after, never between. */
  updateAliases(actions: AliasAction[]): Promise<void>;
  /** Open indices whose names match a wildcard pattern. */
  indices(pattern: string): Promise<string[]>;
  deleteIndices(indices: string | string[]): Promise<void>;
  deleteIndexTemplate(name: string): Promise<void>;
  /** Header and body lines, two per search; throws when the cluster cannot be asked at all. */
  msearch<T>(searches: object[]): Promise<SearchResult<T>[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
};
