import { Client, errors } from '@elastic/elasticsearch';
import type { AliasAction, SearchCluster, SearchResult } from './search-cluster.js';
import { SearchIndexEngine, type SearchIndexEngineOptions } from './search-index.engine.js';
import type { IndexTemplate } from './search-index.mapping.js';

/** The search-index engine on Elasticsearch 8, through Elastic's own client. */
export class ElasticsearchEngine extends SearchIndexEngine {
  constructor(options: SearchIndexEngineOptions) {
    super('elasticsearch', new ElasticsearchCluster(options), options);
  }
}

export class ElasticsearchCluster implements SearchCluster {
  readonly product = 'Elasticsearch';
  readonly url: string;
  private readonly client: Client;

  constructor(options: { url: string; requestTimeoutMs?: number }) {
    this.url = options.url;
    this.client = new Client({ node: options.url, requestTimeout: options.requestTimeoutMs ?? 10_000, maxRetries: 1 });
  }

  async putIndexTemplate(template: IndexTemplate): Promise<void> {
    await this.client.indices.putIndexTemplate(template);
  }

  async createIndex(index: string): Promise<boolean> {
    try {
      await this.client.indices.create({ index });
      return true;
    } catch (error) {
      if (error instanceof errors.ResponseError && error.body?.error?.type === 'resource_already_exists_exception')
        return false;
      throw error;
    }
  }

  async putSettings(index: string, settings: Record<string, unknown>): Promise<void> {
    await this.client.indices.putSettings({ index, settings });
  }

  async bulk(operations: object[]): Promise<string | undefined> {
    const result = await this.client.bulk({ operations, refresh: false });
    if (!result.errors) return undefined;
    return result.items.find((item) => item.index?.error)?.index?.error?.reason ?? 'unknown error';
  }

  async refresh(index: string): Promise<void> {
    await this.client.indices.refresh({ index });
  }

  async count(index: string): Promise<number> {
    return (await this.client.count({ index })).count;
  }

  async aliasIndices(alias: string): Promise<string[]> {
    try {
      return Object.keys(await this.client.indices.getAlias({ name: alias }));
    } catch (error) {
      if (error instanceof errors.ResponseError && error.statusCode === 404) return [];
      throw error;
    }
  }

  async updateAliases(actions: AliasAction[]): Promise<void> {
    await this.client.indices.updateAliases({ actions });
  }

  async indices(pattern: string): Promise<string[]> {
    return Object.keys(await this.client.indices.get({ index: pattern, expand_wildcards: 'open' }));
  }

  async deleteIndices(indices: string | string[]): Promise<void> {
    await this.client.indices.delete({ index: indices, expand_wildcards: 'all' });
  }

  async deleteIndexTemplate(name: string): Promise<void> {
    await this.client.indices.deleteIndexTemplate({ name });
  }

  async msearch<T>(searches: object[]): Promise<SearchResult<T>[]> {
    const { responses } = await this.client.msearch<T>({ searches: searches as never });
    return responses.map((response): SearchResult<T> =>
      'error' in response
        ? { error: { type: response.error.type, ...(response.error.reason ? { reason: response.error.reason } : {}) } }
        : {
            // Named queries come back as a list unless a search asks for their scores (we never do).
            hits: response.hits.hits.map(({ _index, _source, matched_queries }) => ({
              _index,
              ...(_source === undefined ? {} : { _source }),
              ...(Array.isArray(matched_queries) ? { matched_queries } : {}),
            })),
          },
    );
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
