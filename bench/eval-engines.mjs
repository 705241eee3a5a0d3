#!/usr/bin/env node
// npm run eval:engines — match quality of the screening service's index engines, side by side.
//
// eval:matching measures the @vigil/matching algorithms through the vigil-screen CLI; this one
// measures what the service answers with: the same lists loaded as one partition per list into
// each CandidateIndex engine (in-process, OpenSearch), the labelled development sets screened
// through screenMany against every partition, each result's status from the default score
// bands, scored by ../shared/eval/score.py. The engines must agree within half a point (issue 34).
//
// OpenSearch: OPENSEARCH_URL when it answers, else a node of our own (infra/scripts/opensearch.mjs).
//
//   node bench/eval-engines.mjs [--engines in-process,opensearch] [--sets FILE,FILE] [--lists DIR] [--out DIR] [--limit N]
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const value = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const sets = value(
  '--sets',
  [join(root, '../shared/eval/dev-queries.jsonl'), join(root, 'bench/eval/dev-v2.jsonl')].join(','),
)
  .split(',')
  .map((p) => resolve(p));
const engines = value('--engines', 'in-process,opensearch').split(',');
const listsDir = resolve(value('--lists', join(root, '../shared/data/lists')));
const outDir = resolve(value('--out', mkdtempSync(join(tmpdir(), 'vigil-eval-engines-'))));
const limit = Number(value('--limit', '10'));
const scorer = resolve(root, '../shared/eval/score.py');
mkdirSync(outDir, { recursive: true });

for (const [what, path] of [...sets.map((p) => ['queries', p]), ['lists', listsDir], ['scorer', scorer]]) {
  if (!existsSync(path)) {
    console.error(`eval:engines: ${what} not found at ${path}`);
    process.exit(1);
  }
}
const dist = join(root, 'services/screening/dist/src/index');
if (!existsSync(join(dist, 'opensearch.engine.js'))) {
  console.error('eval:engines: build the screening service first (npx nx build @vigil/screening)');
  process.exit(1);
}

const { loadListsFromDir } = await import('@vigil/lists/node');
const { resolveConfig, statusFor } = await import('@vigil/matching');
const config = resolveConfig();

const started = performance.now();
const loaded = await loadListsFromDir(listsDir);
const byList = new Map();
for (const entity of loaded.entities) {
  if (!byList.has(entity.listId)) byList.set(entity.listId, []);
  byList.get(entity.listId).push(entity);
}
// One partition per list, as the service loads one per source.
const partitions = [...byList].map(([source, entities]) => ({
  info: {
    source,
    feed: 'sanctions',
    dataset: source.replace(/-/g, '_'),
    versionId: 1,
    sha256: '0'.repeat(64),
    fetchedAt: new Date(0).toISOString(),
    entityCount: entities.length,
  },
  entities,
}));
const sources = partitions.map((p) => p.info.source);
console.log(
  `lists: ${loaded.entities.length} entities in ${partitions.length} partitions (${partitions.map((p) => `${p.info.source}=${p.entities.length}`).join(' ')}), read in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);

const perSet = sets.map((path) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l)),
);
const queries = perSet.flat();

async function makeEngine(name) {
  if (name === 'in-process') {
    const { InProcessEngine } = await import(join(dist, 'in-process.engine.js'));
    const engine = new InProcessEngine();
    return { engine, stop: () => engine.close() };
  }
  if (name === 'opensearch') {
    const { ensureOpenSearch } = await import('../infra/scripts/opensearch.mjs');
    const node = await ensureOpenSearch({ port: 9290, heap: '1g' });
    const { OpenSearchEngine } = await import(join(dist, 'opensearch.engine.js'));
    const engine = new OpenSearchEngine({
      url: node.url,
      prefix: `vigil-eval-${randomBytes(4).toString('hex')}`,
      requestTimeoutMs: 60_000,
    });
    return {
      engine,
      stop: async () => {
        // Before close(): destroyAll needs the engine's client.
        await engine.destroyAll();
        await engine.close();
        await node.stop();
      },
    };
  }
  throw new Error(`unknown engine ${name}`);
}

async function run(name) {
  const { engine, stop } = await makeEngine(name);
  try {
    const loadStarted = performance.now();
    await engine.load(partitions);
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const screenStarted = performance.now();
    const lines = new Map();
    for (let i = 0; i < queries.length; i += 50) {
      const batch = queries.slice(i, i + 50);
      const answers = await engine.screenMany(
        batch.map((q) => q.query),
        { sources, limit },
      );
      batch.forEach((q, k) => {
        const results = answers[k].map((m) => ({
          listId: m.source,
          sourceId: m.entity.sourceId,
          name: m.entity.names[0]?.full ?? '',
          matchedName: m.matchedName,
          score: m.score,
          status: statusFor(m.score, config),
        }));
        lines.set(q.id, JSON.stringify({ id: q.id, results }));
      });
    }
    const screenSeconds = (performance.now() - screenStarted) / 1000;
    console.log(
      `${name}: loaded in ${loadSeconds.toFixed(1)} s; ${queries.length} queries in ${screenSeconds.toFixed(1)} s (${((screenSeconds * 1000) / queries.length).toFixed(1)} ms each, batches of 50)`,
    );
    return sets.map((path, k) => {
      const out = join(outDir, `${name}.${basename(path, '.jsonl')}.results.jsonl`);
      writeFileSync(out, perSet[k].map((q) => lines.get(q.id)).join('\n') + '\n');
      const res = spawnSync('python3', [scorer, path, out, '--json'], { encoding: 'utf8' });
      if (res.status !== 0) {
        process.stderr.write(res.stderr);
        process.exit(1);
      }
      return JSON.parse(res.stdout.slice(0, res.stdout.lastIndexOf('\nsummary:')));
    });
  } finally {
    await stop();
  }
}

const results = [];
for (const name of engines) results.push(await run(name));
console.log(`results in ${outDir}\n`);

const f = (x) => (x === undefined || x === null ? '     -' : x.toFixed(3).padStart(6));
const METRICS = [
  ['recall', 'recall'],
  ['recall@10', 'r@10'],
  ['top1', 'top1'],
  ['fa_rate', 'FA'],
];
sets.forEach((path, k) => {
  console.log(`== ${basename(path)}  (${perSet[k].length} queries; columns: ${engines.join(' | ')})`);
  const head = METRICS.map(([, label]) => engines.map((_, i) => (i === 0 ? label : '').padStart(6)).join(' ')).join(
    ' │ ',
  );
  console.log(`${'kind'.padEnd(36)} ${'n'.padStart(4)}  ${head}`);
  for (const kind of results[0][k].kinds.map((r) => r.kind)) {
    const rows = results.map((r) => r[k].kinds.find((x) => x.kind === kind) ?? {});
    console.log(
      `${kind.padEnd(36)} ${String(rows[0].n).padStart(4)}  ${METRICS.map(([m]) => rows.map((r) => f(r[m])).join(' ')).join(' │ ')}`,
    );
  }
  const sums = results.map((r) => r[k].summary);
  console.log(
    `${'OVERALL'.padEnd(36)} ${String(sums[0].queries).padStart(4)}  ${METRICS.map(([m]) => sums.map((s) => f(s[m])).join(' ')).join(' │ ')}`,
  );
  engines.forEach((name, i) => {
    const s = sums[i];
    console.log(
      `summary ${name}: recall=${s.recall.toFixed(3)} recall@10=${s['recall@10'].toFixed(3)} top1=${s.top1.toFixed(3)} fa_rate=${s.fa_rate.toFixed(3)} precision=${s.precision.toFixed(3)} missing=${s.missing}`,
    );
  });
  console.log('');
});
