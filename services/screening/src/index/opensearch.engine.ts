import { Client, errors } from '@opensearch-project/opensearch';
import type { AliasAction, SearchCluster, SearchHit, SearchResult } from './search-cluster.js';
import { SearchIndexEngine, type SearchIndexEngineOptions } from './search-index.engine.js';
import type { IndexTemplate } from './search-index.mapping.js';

/**
 * The search-index engine on OpenSearch (Apache-2.0), through its official client: the same
 * index design, documents and queries as on Elasticsearch.
 */
export class OpenSearchEngine extends SearchIndexEngine {
  constructor(options: SearchIndexEngineOptions) {
    super('opensearch', new OpenSearchCluster(options), options);
  }
}

type ErrorBody = { error?: { type?: string; reason?: string } };

export class OpenSearchCluster implements SearchCluster {
  readonly product = 'OpenSearch';
  readonly url: string;
  private readonly client: Client;

  constructor(options: { url: string; requestTimeoutMs?: number }) {
    this.url = options.url;
    this.client = new Client({ node: options.url, requestTimeout: options.requestTimeoutMs ?? 10_000, maxRetries: 1 });
  }

  async putIndexTemplate({ name, ...body }: IndexTemplate): Promise<void> {
    await this.client.indices.putIndexTemplate({ name, body: body as never });
  }

  async createIndex(index: string): Promise<boolean> {
    try {
      await this.client.indices.create({ index });
      return true;
    } catch (error) {
      if (
        error instanceof errors.ResponseError &&
        (error.body as ErrorBody)?.error?.type === 'resource_already_exists_exception'
      )
        return false;
      throw error;
    }
  }

  async putSettings(index: string, settings: Record<string, unknown>): Promise<void> {
    await this.client.indices.putSettings({ index, body: settings });
  }

  async bulk(operations: object[]): Promise<string | undefined> {
    const { body } = await this.client.bulk({ body: operations as never, refresh: false });
    if (!body.errors) return undefined;
    return body.items.find((item) => item.index?.error)?.index?.error?.reason ?? 'unknown error';
  }

  async refresh(index: string): Promise<void> {
    await this.client.indices.refresh({ index });
  }

  async count(index: string): Promise<number> {
    return (await this.client.count({ index })).body.count;
  }

  async aliasIndices(alias: string): Promise<string[]> {
    try {
      return Object.keys((await this.client.indices.getAlias({ name: alias })).body);
    } catch (error) {
      if (error instanceof errors.ResponseError && error.statusCode === 404) return [];
      throw error;
    }
  }

  async updateAliases(actions: AliasAction[]): Promise<void> {
    await this.client.indices.updateAliases({ body: { actions } });
  }

  async indices(pattern: string): Promise<string[]> {
    return Object.keys((await this.client.indices.get({ index: pattern, expand_wildcards: 'open' })).body);
  }

  async deleteIndices(indices: string | string[]): Promise<void> {
    await this.client.indices.delete({ index: indices, expand_wildcards: 'all' });
  }

  async deleteIndexTemplate(name: string): Promise<void> {
    await this.client.indices.deleteIndexTemplate({ name });
  }

  async msearch<T>(searches: object[]): Promise<SearchResult<T>[]> {
    const { body } = await this.client.msearch({ body: searches as never });
    return body.responses.map((response): SearchResult<T> => {
      if ('error' in response && response.error) {
        const { type, reason } = response.error;
        return { error: { type: String(type), ...(reason ? { reason } : {}) } };
      }
      return { hits: (response as { hits: { hits: SearchHit<T>[] } }).hits.hits };
    });
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
