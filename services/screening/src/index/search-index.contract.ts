import { randomBytes } from 'node:crypto';
import { OFAC_ENTITIES } from '../testing/entities.js';
import { candidateIndexContract, partition } from './candidate-index.contract.js';
import type { SearchCluster } from './search-cluster.js';
import { SearchIndexEngine, type SearchIndexEngineOptions } from './search-index.engine.js';

// What every search cluster's spec runs: the engine unreachable, the CandidateIndex contract and
// the per-version rollover, against a live cluster at `url`. Each engine gets its own index prefix
// (one that starts another's, "x" and "x-alias", would give two index templates matching the same
// indices, which the cluster refuses), and every prefix is deleted afterwards.

export type SearchClusterSuite = {
  engine: 'opensearch' | 'elasticsearch';
  /** The cluster's URL, or undefined when none is given (then only the unreachable case runs). */
  url: string | undefined;
  cluster: (options: { url: string; requestTimeoutMs?: number }) => SearchCluster;
  /** Printed when the suite skips: how to run it. */
  howToRun: string;
  /** In CI a missing URL is broken wiring: fail instead of skipping. */
  requiredInCi: boolean;
};

export type SuiteContext = {
  url: string;
  /** A fresh engine (own prefix, cleaned up after the file) on `cluster`, or on a new client by default. */
  engine: (options?: Partial<SearchIndexEngineOptions>, cluster?: SearchCluster) => SearchIndexEngine;
};

export function searchClusterSuite(suite: SearchClusterSuite, extra?: (context: SuiteContext) => void): void {
  const product = suite.cluster({ url: 'http://127.0.0.1:9' }).product;

  describe(`${product} engine without ${product}`, () => {
    it('reports itself down instead of pretending to search', async () => {
      // Port 9 (discard) is closed on test machines: the connection is refused at once.
      const options = { url: 'http://127.0.0.1:9', prefix: 'vigil-unreachable', requestTimeoutMs: 2000 };
      const engine = new SearchIndexEngine(suite.engine, suite.cluster(options), options);
      const health = await engine.health();
      expect(health.up).toBe(false);
      expect(health.detail).toMatch(new RegExp(`${product} unreachable`));
      await expect(engine.screen({ name: 'Viktor Bout' }, { sources: [], limit: 5 })).resolves.toEqual([]);
      await engine.close();
    });
  });

  const url = suite.url;
  if (!url) {
    process.stdout.write(`${product} contract suite skipped: ${suite.howToRun}\n`);
    describe(`CandidateIndex contract: ${suite.engine}`, () => {
      const inCi = suite.requiredInCi && Boolean(process.env.CI);
      (inCi ? it : it.skip)(`runs against a live ${product} node`, () => {
        throw new Error(
          `${product} is not given in CI: npm test starts a node and must pass its URL to the unit tests.`,
        );
      });
    });
    return;
  }

  const prefixes: string[] = [];
  const engine: SuiteContext['engine'] = (options = {}, cluster) => {
    const prefix = `vigil-test-${randomBytes(4).toString('hex')}`;
    prefixes.push(prefix);
    const all = { url, prefix, ...options };
    return new SearchIndexEngine(suite.engine, cluster ?? suite.cluster(all), all);
  };
  // The contract closes its engine before this runs: clean up through new ones.
  afterAll(async () => {
    for (const prefix of prefixes) {
      const cleaner = new SearchIndexEngine(suite.engine, suite.cluster({ url }), { url, prefix });
      await cleaner.destroyAll();
      await cleaner.close();
    }
  });

  candidateIndexContract(`${suite.engine} at ${url}`, async () => engine());

  describe(`${product} rollover`, () => {
    it('points the per-source alias at the newest version and keeps one version before it', async () => {
      const cluster = suite.cluster({ url });
      const rolling = engine({}, cluster);
      for (const version of [7, 8, 9]) {
        const entities = OFAC_ENTITIES.slice(version - 7);
        await rolling.load([{ info: partition('ofac-sdn', 'ofac', version, entities), entities }]);
      }
      expect(await cluster.aliasIndices(rolling.alias('ofac-sdn'))).toEqual([rolling.indexName('ofac-sdn', 9)]);
      expect((await cluster.indices(`${rolling.alias('ofac-sdn')}-l*`)).sort()).toEqual([
        rolling.indexName('ofac-sdn', 8),
        rolling.indexName('ofac-sdn', 9),
      ]);
      await rolling.close();
    });

    it('says which engine and cluster it is', async () => {
      const fresh = engine();
      expect(fresh.engine).toBe(suite.engine);
      expect(await fresh.health()).toEqual({ up: true, detail: `0 partitions on ${product} at ${url}` });
      await fresh.close();
    });

    extra?.({ url, engine });
  });
}
