#!/usr/bin/env node
// npm run bench:engines — the screening service's index engines side by side at scale (issue 34):
// in-process (each replica holds the index) and OpenSearch (one shared index per list version).
//
// For each collection (the shared lists, then N synthetic names from bench/lib/synthetic.mjs) and
// each engine, a fresh Node process plays one screening replica, with the heap a replica gets
// (--max-old-space-size=8192): it builds the index (CandidateIndex.load), reports its resident
// memory once built and its peak, screens the queries one at a time (p50/p99 per screen), then at
// `--concurrency` in flight (screens per second), and finally refreshes to a new list version of
// the same size (the time until the new version answers). For OpenSearch the node's own heap and
// index size are reported beside the replica's memory: the node is shared by every replica.
// A size an engine cannot hold is reported as it fails (e.g. out of memory), not skipped.
//
//   node bench/bench-engines.mjs [--sizes shared,1000000] [--engines in-process,opensearch]
//                                [--queries 1000] [--concurrency 8] [--timeout-min 40] [--no-refresh]
// OpenSearch: OPENSEARCH_URL when it answers, else a node of our own (infra/scripts/opensearch.mjs, 2 GB heap).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAverageText } from './lib/host.mjs';
import { synthetic, syntheticQueries } from './lib/synthetic.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const dist = join(root, 'services/screening/dist/src/index');
const listsDir = resolve(root, arg('--lists', '../shared/data/lists'));
const devQueries = resolve(root, '../shared/eval/dev-queries.jsonl');
const QUERY_COUNT = Number(arg('--queries', '1000'));
const CONCURRENCY = Number(arg('--concurrency', '8'));
const LIMIT = 10;

const mb = (bytes) => Math.round(bytes / 1024 / 1024);
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const gc = () => {
  globalThis.gc?.();
  globalThis.gc?.();
};

/** This process's resident high-water mark (Linux VmHWM): the build and refresh peaks included. */
const peakRssMB = () =>
  Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN) / 1024);

/** One list version per source, as the service loads them; `tag` makes ids differ between versions. */
async function collection(size) {
  if (size === 'shared') {
    const { loadListsFromDir } = await import('@vigil/lists/node');
    const { entities } = await loadListsFromDir(listsDir);
    const byList = new Map();
    for (const e of entities) byList.set(e.listId, [...(byList.get(e.listId) ?? []), e]);
    const queries = readFileSync(devQueries, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l).query)
      .slice(0, QUERY_COUNT);
    return { names: entities.reduce((n, e) => n + e.names.length, 0), byList, queries };
  }
  const { entities, names } = synthetic(Number(size));
  return { names, byList: new Map([['synthetic', entities]]), queries: syntheticQueries(entities, QUERY_COUNT) };
}

const partitions = (byList, versionId) =>
  [...byList].map(([source, entities]) => ({
    info: {
      source,
      feed: 'sanctions',
      dataset: source.replace(/-/g, '_'),
      versionId,
      sha256: String(versionId).padStart(64, '0'),
      fetchedAt: new Date(0).toISOString(),
      entityCount: entities.length,
    },
    entities,
  }));

async function makeEngine(name, url) {
  if (name === 'in-process') {
    const { InProcessEngine } = await import(join(dist, 'in-process.engine.js'));
    return new InProcessEngine();
  }
  const { OpenSearchEngine } = await import(join(dist, 'opensearch.engine.js'));
  return new OpenSearchEngine({
    url,
    prefix: `vigil-bench-${randomBytes(4).toString('hex')}`,
    requestTimeoutMs: 120_000,
  });
}

/** The OpenSearch node's JVM heap in use and the size of this run's indices. */
async function nodeFigures(url, prefix) {
  const stats = await (await fetch(`${url}/_nodes/stats/jvm,process`)).json();
  const node = Object.values(stats.nodes)[0];
  const indices = await (await fetch(`${url}/_cat/indices/${prefix}-*?format=json&bytes=b`)).json();
  return {
    nodeHeapMB: mb(node.jvm.mem.heap_used_in_bytes),
    nodeHeapMaxMB: mb(node.jvm.mem.heap_max_in_bytes),
    indexMB: mb(indices.reduce((n, i) => n + Number(i['store.size'] ?? 0), 0)),
  };
}

/** One replica: build, memory, latency, throughput, refresh. Prints one JSON line. */
async function replica(engineName, size, url) {
  const generated = performance.now();
  let data = await collection(size);
  const { names, queries } = data;
  const sources = [...data.byList.keys()];
  const generateS = (performance.now() - generated) / 1000;
  const engine = await makeEngine(engineName, url);
  const built = performance.now();
  await engine.load(partitions(data.byList, 1));
  const buildS = (performance.now() - built) / 1000;
  // What a replica keeps: the engine's state, not the entities it was handed (they came from Postgres).
  data = null;
  gc();
  const rssMB = mb(process.memoryUsage().rss);
  const scope = { sources, limit: LIMIT };
  for (const q of queries.slice(0, 100)) await engine.screen(q, scope);
  const wall = [];
  for (const q of queries) {
    const t = performance.now();
    await engine.screen(q, scope);
    wall.push(performance.now() - t);
  }
  wall.sort((a, b) => a - b);
  let next = 0;
  const concurrentStarted = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < queries.length) await engine.screen(queries[next++], scope);
    }),
  );
  const screensPerS = queries.length / ((performance.now() - concurrentStarted) / 1000);
  // A new version of every list, as large: built beside the one answering, then switched to.
  let refreshS;
  if (!args.includes('--no-refresh')) {
    const again = await collection(size);
    const refreshed = performance.now();
    await engine.load(partitions(again.byList, 2));
    refreshS = (performance.now() - refreshed) / 1000;
  }
  const node = engine.engine === 'opensearch' ? await nodeFigures(url, engine.alias('x').slice(0, -2)) : {};
  if (engine.destroyAll) await engine.destroyAll();
  await engine.close();
  const result = {
    engine: engineName,
    size,
    names,
    queries: queries.length,
    generateS,
    buildS,
    refreshS,
    rssMB,
    peakRssMB: peakRssMB(),
    p50: pct(wall, 0.5),
    p99: pct(wall, 0.99),
    concurrency: CONCURRENCY,
    screensPerS,
    ...node,
  };
  process.stdout.write(JSON.stringify(result) + '\n');
}

function runReplica(engine, size) {
  const timeoutMs = Number(arg('--timeout-min', '40')) * 60_000;
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      [
        '--expose-gc',
        '--max-old-space-size=8192',
        fileURLToPath(import.meta.url),
        '--replica',
        engine,
        '--size',
        size,
        ...args,
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const line = out.trim().split('\n').pop();
      if (code === 0 && line) return done(JSON.parse(line));
      const oom = /heap out of memory|Allocation failed/i.test(err);
      const why = oom
        ? 'out of memory (8 GB heap)'
        : signal === 'SIGKILL'
          ? `over ${timeoutMs / 60_000} min`
          : `exit ${code ?? signal}`;
      process.stderr.write(err.split('\n').slice(-8).join('\n') + '\n');
      done({ engine, size, failed: why });
    });
  });
}

if (args.includes('--replica')) {
  await replica(arg('--replica'), arg('--size'), process.env.OPENSEARCH_URL);
  process.exit(0);
}

if (!existsSync(join(dist, 'opensearch.engine.js'))) {
  console.error('bench:engines: build the screening service first (npx nx build @vigil/screening)');
  process.exit(1);
}
const engines = arg('--engines', 'in-process,opensearch').split(',');
const sizes = arg('--sizes', 'shared,1000000').split(',');
let node;
if (engines.includes('opensearch')) {
  const { ensureOpenSearch } = await import('../infra/scripts/opensearch.mjs');
  node = await ensureOpenSearch({ port: 9290, heap: '2g' });
  process.env.OPENSEARCH_URL = node.url;
}
console.log(
  `bench:engines on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${mb(totalmem())} MB, Node ${process.version}, ` +
    `load average ${loadAverageText()}; ${QUERY_COUNT} queries per size, ${CONCURRENCY} in flight for screens/s`,
);
const rows = [];
for (const size of sizes) {
  for (const engine of engines) {
    const row = await runReplica(engine, size);
    rows.push(row);
    console.log(JSON.stringify(row));
  }
}
await node?.stop();

const f = (x, d = 1) => (typeof x === 'number' ? x.toFixed(d) : '—');
console.log(`\nload average after: ${loadAverageText()}\n`);
console.log(
  '| collection | engine | names | build s | refresh s | replica RSS MB (peak) | p50 ms | p99 ms | screens/s at ' +
    `${CONCURRENCY} | OpenSearch heap MB / index MB |`,
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
  if (r.failed) {
    console.log(`| ${r.size} | ${r.engine} | | ${r.failed} | | | | | | |`);
    continue;
  }
  const os = r.nodeHeapMB === undefined ? '—' : `${r.nodeHeapMB} of ${r.nodeHeapMaxMB} / ${r.indexMB}`;
  console.log(
    `| ${r.size} | ${r.engine} | ${r.names} | ${f(r.buildS)} | ${f(r.refreshS)} | ${r.rssMB} (${r.peakRssMB}) | ` +
      `${f(r.p50, 2)} | ${f(r.p99, 2)} | ${f(r.screensPerS, 0)} | ${os} |`,
  );
}
