import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { candidateIndexContract } from './candidate-index.contract.js';
import { ElasticsearchEngine } from './elasticsearch.engine.js';

// Runs the engine contract against a real Elasticsearch when ELASTICSEARCH_URL is set
// (e.g. docker compose up -d elasticsearch; ELASTICSEARCH_URL=http://127.0.0.1:9200).
// Each run uses its own index prefix and deletes it afterwards.

// A real cluster on a busy 2-core CI machine: creating, filling and refreshing an index can
// take longer than jest's default 5 s per hook or test.
jest.setTimeout(60_000);
const url = process.env.ELASTICSEARCH_URL;

describe('Elasticsearch engine without Elasticsearch', () => {
  it('reports itself down instead of pretending to search', async () => {
    // Port 9 (discard) is closed on test machines: the connection is refused at once.
    const engine = new ElasticsearchEngine({ url: 'http://127.0.0.1:9', prefix: 'vigil-unreachable', requestTimeoutMs: 2000 });
    const health = await engine.health();
    expect(health.up).toBe(false);
    expect(health.detail).toMatch(/unreachable/i);
    await engine.close();
  });
});

if (!url) {
  process.stdout.write('Elasticsearch contract suite skipped: ELASTICSEARCH_URL is not set (docker compose up -d elasticsearch, then ELASTICSEARCH_URL=http://127.0.0.1:9200).\n');
  describe('CandidateIndex contract: elasticsearch', () => {
    it.skip('skipped: set ELASTICSEARCH_URL (e.g. http://127.0.0.1:9200) to run the engine contract against Elasticsearch', () => {});
  });
} else {
  // One prefix per engine: a prefix that starts another's ("x" and "x-alias") would give two
  // index templates matching the same indices, which the cluster refuses (seen on OpenSearch).
  const prefixes: string[] = [];
  const freshPrefix = () => {
    const prefix = `vigil-test-${randomBytes(4).toString('hex')}`;
    prefixes.push(prefix);
    return prefix;
  };
  // The contract closes its engine before this runs: clean up through new ones.
  afterAll(async () => {
    for (const prefix of prefixes) {
      const cleaner = new ElasticsearchEngine({ url, prefix });
      await cleaner.destroyAll();
      await cleaner.close();
    }
  });
  candidateIndexContract(`elasticsearch at ${url}`, async () => {
    const engine = new ElasticsearchEngine({ url, prefix: freshPrefix() });
    return engine;
  });

  describe('Elasticsearch rollover', () => {
    it('points the per-source alias at the newest version', async () => {
      const engine = new ElasticsearchEngine({ url, prefix: freshPrefix() });
      const { OFAC_ENTITIES } = await import('../testing/entities.js');
      const { partition } = await import('./candidate-index.contract.js');
      await engine.load([{ info: partition('ofac-sdn', 'ofac', 7, OFAC_ENTITIES), entities: OFAC_ENTITIES }]);
      await engine.load([{ info: partition('ofac-sdn', 'ofac', 8, OFAC_ENTITIES.slice(1)), entities: OFAC_ENTITIES.slice(1) }]);
      const { Client } = await import('@elastic/elasticsearch');
      const client = new Client({ node: url });
      const aliased = Object.keys(await client.indices.getAlias({ name: engine.alias('ofac-sdn') }));
      expect(aliased).toEqual([engine.indexName('ofac-sdn', 8)]);
      await client.close();
    });
  });
}
