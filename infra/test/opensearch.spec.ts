import { jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '@vigil/platform/testing';
import { ensureOpenSearch, javaMajorOf } from '../scripts/opensearch.mjs';

// Resolving the jars from Maven Central the first time, then a JVM start on two busy cores.
jest.setTimeout(300_000);

const java = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
const javaPresent = !spawnSync(java, ['-version']).error;
if (!javaPresent)
  console.warn(
    'SKIPPED: the OpenSearch node tests need Java 17+ and Maven (apt-get install -y openjdk-17-jdk-headless maven); there is no `java` on this machine.',
  );
// Only a missing `java` skips: anything else that stops the node is a failure.
const describeWithJava = javaPresent ? describe : describe.skip;

type Hit = { _id: string; _score: number; _source: { name: string } };

describe('reading the Java version', () => {
  it('takes the major version of Java 8 and of Java 9 and later', () => {
    expect(javaMajorOf('openjdk version "17.0.15" 2025-04-15')).toBe(17);
    expect(javaMajorOf('openjdk version "25" 2025-09-16')).toBe(25);
    expect(javaMajorOf('java version "1.8.0_402"')).toBe(8);
    expect(javaMajorOf('command not found')).toBeUndefined();
  });
});

// The distributed index engine needs a real OpenSearch; npm test installs one from Maven Central
// and starts it here. This proves the node works for what screening will ask of it: an analyzer
// from the analysis-common module, fuzzy matches and phrase matches.
describeWithJava('a single OpenSearch node started by infra/scripts/opensearch.mjs', () => {
  let node: Awaited<ReturnType<typeof ensureOpenSearch>>;
  const index = `vigil-proof-${process.pid}`;
  const call = async <T = unknown>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${node.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json as T;
  };
  const search = async (query: unknown) => {
    const { hits } = await call<{ hits: { hits: Hit[] } }>('POST', `/${index}/_search`, { query });
    return hits.hits.map((hit) => hit._source.name);
  };

  beforeAll(async () => {
    node = await ensureOpenSearch({
      port: await freePort(),
      fail: (message: string) => {
        throw new Error(message);
      },
    });
    await call('PUT', `/${index}`, {
      settings: {
        number_of_shards: 1,
        number_of_replicas: 0,
        analysis: {
          filter: { name_prefixes: { type: 'edge_ngram', min_gram: 2, max_gram: 12 } },
          analyzer: {
            // Accents and case do not count: "Müller" and "MULLER" are one name.
            folded_name: { type: 'custom', tokenizer: 'standard', filter: ['asciifolding', 'lowercase'] },
            // Every token's prefixes, for names typed in part.
            name_prefixes: {
              type: 'custom',
              tokenizer: 'standard',
              filter: ['asciifolding', 'lowercase', 'name_prefixes'],
            },
          },
        },
      },
      mappings: {
        properties: {
          name: {
            type: 'text',
            analyzer: 'folded_name',
            fields: { prefix: { type: 'text', analyzer: 'name_prefixes', search_analyzer: 'folded_name' } },
          },
        },
      },
    });
    const names = ['José Müller', 'Vladimir Vladimirovich Putin', 'Kim Jong Un'];
    for (const [i, name] of names.entries()) await call('PUT', `/${index}/_doc/${i + 1}`, { name });
    await call('POST', `/${index}/_refresh`);
  });

  afterAll(async () => {
    if (!node) return;
    await call('DELETE', `/${index}`).catch(() => {});
    await node.stop();
  });

  it('answers as OpenSearch 2.19 with the two modules loaded', async () => {
    const root = await call<{ version: { distribution: string; number: string } }>('GET', '/');
    expect(root.version).toMatchObject({ distribution: 'opensearch', number: expect.stringMatching(/^2\.19\./) });
    const { nodes } = await call<{ nodes: Record<string, { modules: { name: string }[] }> }>('GET', '/_nodes/plugins');
    const names = Object.values(nodes).flatMap((n) => n.modules.map((m) => m.name));
    expect(names.sort()).toEqual(['analysis-common', 'transport-netty4']);
  });

  it('folds accents and case and indexes prefixes with the analysis-common filters', async () => {
    const { tokens } = await call<{ tokens: { token: string }[] }>('POST', `/${index}/_analyze`, {
      analyzer: 'name_prefixes',
      text: 'Müller',
    });
    const terms = tokens.map((t) => t.token);
    console.log(`name_prefixes("Müller") → ${terms.join(' ')}`);
    expect(terms).toEqual(['mu', 'mul', 'mull', 'mulle', 'muller']);
  });

  it('finds a misspelt name with a fuzzy match', async () => {
    const hits = await search({ match: { name: { query: 'Vladimr Puttin', fuzziness: 'AUTO' } } });
    console.log(`match "Vladimr Puttin" fuzziness AUTO → ${JSON.stringify(hits)}`);
    expect(hits).toEqual(['Vladimir Vladimirovich Putin']);
    expect(await search({ match: { name: { query: 'JOSE MULER', fuzziness: 'AUTO' } } })).toEqual(['José Müller']);
    // Without fuzziness the misspelling finds nothing: the fuzzy match did the work.
    expect(await search({ match: { name: 'Vladimr Puttin' } })).toEqual([]);
  });

  it('matches a phrase only in its order', async () => {
    const hits = await search({ match_phrase: { name: 'jong un' } });
    console.log(`match_phrase "jong un" → ${JSON.stringify(hits)}; "un jong" → []`);
    expect(hits).toEqual(['Kim Jong Un']);
    expect(await search({ match_phrase: { name: 'un jong' } })).toEqual([]);
  });

  it('finds a name typed in part through its prefixes', async () => {
    expect(await search({ match: { 'name.prefix': 'mull' } })).toEqual(['José Müller']);
  });
});
