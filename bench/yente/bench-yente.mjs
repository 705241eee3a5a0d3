#!/usr/bin/env node
// npm run bench:yente — the anchor beside Vigil (issue #34): OpenSanctions' yente, from PyPI, on
// the same OpenSearch node with the same lists, in the same run as Vigil's two index engines.
//
// 1. The lists Vigil screens (../shared/data/lists, parsed by @vigil/lists as eval:engines does)
//    are written as FtM entities, one yente dataset per list, plus a manifest (ftm-export.mjs);
//    the OpenSanctions files are FtM already and yente reads them as they are.
// 2. yente (pinned, in a venv under .vigil/) indexes them into the OpenSearch node and serves
//    its API on loopback (yente.mjs).
// 3. Quality: the development set goes through yente's /match/vigil with its default algorithm
//    and threshold (a result is flagged when yente says `match`), through Vigil's in-process and
//    OpenSearch engines (status from the default score bands, as eval:engines), and all three are
//    scored by ../shared/eval/score.py.
// 4. Speed: the same queries at the same concurrency: yente one /match request per screen, Vigil
//    one CandidateIndex.screen per screen (as bench:engines). CPU per screen beside screens per
//    second, since the machine is shared: the process answering plus the OpenSearch node.
//
//   node bench/yente/bench-yente.mjs [--concurrency 8] [--queries 1000] [--opensearch-port 9290]
//                                    [--yente-port 8091] [--sets FILE] [--out DIR]
// OpenSearch: OPENSEARCH_URL when it answers, else a node of our own on --opensearch-port.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAverageText, processCpuMs } from '../lib/host.mjs';
import { exportLists } from './ftm-export.mjs';
import { YENTE_VERSION, clearIndex, ensureYente, ftmSchemas, reindex, serve, yenteEnv } from './yente.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const CONCURRENCY = Number(arg('--concurrency', '8'));
const QUERY_COUNT = Number(arg('--queries', '1000'));
const LIMIT = 10;
const devSet = resolve(arg('--sets', join(root, '../shared/eval/dev-queries.jsonl')));
const listsDir = resolve(arg('--lists', join(root, '../shared/data/lists')));
const outDir = resolve(arg('--out', mkdtempSync(join(tmpdir(), 'vigil-bench-yente-'))));
const scorer = resolve(root, '../shared/eval/score.py');
const dist = join(root, 'services/screening/dist/src/index');
mkdirSync(outDir, { recursive: true });
for (const [what, path] of [
  ['queries', devSet],
  ['lists', listsDir],
  ['scorer', scorer],
  ['the built screening service (npx nx build @vigil/screening)', join(dist, 'opensearch.engine.js')],
]) {
  if (!existsSync(path)) {
    console.error(`bench:yente: ${what} not found at ${path}`);
    process.exit(1);
  }
}

const { loadListsFromDir } = await import('@vigil/lists/node');
const { resolveConfig, statusFor } = await import('@vigil/matching');
const config = resolveConfig();
const queries = readFileSync(devSet, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l));
const speedQueries = queries.slice(0, QUERY_COUNT).map((q) => q.query);
console.log(
  `bench:yente on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ` +
    `${loadAverageText()}; yente ${YENTE_VERSION}; ${queries.length} labelled queries, ${speedQueries.length} ` +
    `for speed at ${CONCURRENCY} in flight; output in ${outDir}`,
);

const loaded = await loadListsFromDir(listsDir);
const byList = new Map();
for (const entity of loaded.entities) {
  if (!byList.has(entity.listId)) byList.set(entity.listId, []);
  byList.get(entity.listId).push(entity);
}
const sources = [...byList.keys()];

const bin = ensureYente(root);
const exported = exportLists({
  loaded,
  listsDir,
  outDir: join(outDir, 'ftm'),
  schemas: ftmSchemas(bin),
  version: `vigil-${Date.now()}`,
});
console.log(
  `FtM export: ${exported.datasets.map((d) => `${d.name}=${d.entities}`).join(' ')}; manifest ${exported.manifest}`,
);

const { ensureOpenSearch } = await import('../../infra/scripts/opensearch.mjs');
const node = await ensureOpenSearch({ port: Number(arg('--opensearch-port', '9290')), heap: '1g' });

// ---- Vigil's engines: quality on the labelled set, then speed, one engine at a time.
async function vigil(name) {
  const { InProcessEngine } = await import(join(dist, 'in-process.engine.js'));
  const { OpenSearchEngine } = await import(join(dist, 'opensearch.engine.js'));
  const engine =
    name === 'in-process'
      ? new InProcessEngine()
      : new OpenSearchEngine({
          url: node.url,
          prefix: `vigil-yente-${randomBytes(4).toString('hex')}`,
          requestTimeoutMs: 120_000,
        });
  try {
    const loadStarted = performance.now();
    await engine.load(
      [...byList].map(([source, entities]) => ({
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
      })),
    );
    const buildS = (performance.now() - loadStarted) / 1000;
    const scope = { sources, limit: LIMIT };
    const lines = [];
    for (let i = 0; i < queries.length; i += 50) {
      const batch = queries.slice(i, i + 50);
      const answers = await engine.screenMany(
        batch.map((q) => q.query),
        scope,
      );
      batch.forEach((q, k) => {
        const results = answers[k].map((m) => ({
          listId: m.source,
          sourceId: m.entity.sourceId,
          score: m.score,
          status: statusFor(m.score, config),
        }));
        lines.push(JSON.stringify({ id: q.id, results }));
      });
    }
    const speed = await measure(speedQueries, (q) => engine.screen(q, scope), [process.pid, node.pid]);
    return { name, buildS, quality: score(name, lines), ...speed };
  } finally {
    if (engine.destroyAll) await engine.destroyAll();
    await engine.close();
  }
}

/**
 * `screen` over `items` with CONCURRENCY in flight: screens per second, and CPU per screen of the
 * processes `pids` (NaN where /proc cannot tell). A warm-up of 50 screens first.
 */
async function measure(items, screen, pids) {
  for (const q of items.slice(0, 50)) await screen(q);
  const cpuOf = () => pids.filter(Boolean).map((pid) => (pid === process.pid ? selfCpuMs() : processCpuMs(pid)));
  const cpuBefore = cpuOf();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) await screen(items[next++]);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuMs = cpuOf().reduce((sum, ms, i) => sum + ms - cpuBefore[i], 0);
  return { screensPerS: items.length / seconds, cpuMsPerScreen: cpuMs / items.length, seconds };
}

function selfCpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** score.py's summary and per-kind rows for one system's results. */
function score(name, lines) {
  const path = join(outDir, `${name}.${basename(devSet, '.jsonl')}.results.jsonl`);
  writeFileSync(path, lines.join('\n') + '\n');
  const res = spawnSync('python3', [scorer, devSet, path, '--json'], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`score.py failed: ${res.stderr}`);
  return JSON.parse(res.stdout.slice(0, res.stdout.lastIndexOf('\nsummary:')));
}

// ---- yente: the same queries through /match.
const QUERY_SCHEMA = { person: 'Person', organization: 'Organization', vessel: 'Vessel', aircraft: 'Airplane' };

/** A development-set query as a yente match example: the fields the caller gave, nothing more. */
function example(query) {
  // No type given: LegalEntity, the widest matchable schema (persons, organisations, companies).
  const schema = QUERY_SCHEMA[query.entityType] ?? 'LegalEntity';
  const properties = { name: [query.name] };
  if (query.dob && schema === 'Person') properties.birthDate = [query.dob];
  if (query.country) properties.country = [query.country];
  return { schema, properties };
}

// The default threshold (0.7) decides `match`; cutoff=0 (its default is the threshold) also returns the
// candidates below it, so that recall@10 means for yente what it means for Vigil.
async function match(url, batch) {
  const response = await fetch(`${url}/match/${exported.collection}?limit=${LIMIT}&cutoff=0`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ queries: Object.fromEntries(batch.map(([key, query]) => [key, example(query)])) }),
  });
  if (!response.ok) throw new Error(`yente /match answered ${response.status}: ${await response.text()}`);
  return response.json();
}

async function yente() {
  const port = Number(arg('--yente-port', '8091'));
  const env = yenteEnv({
    opensearchUrl: node.url,
    indexName: `yente-bench-${randomBytes(4).toString('hex')}`,
    manifest: exported.manifest,
    dataPath: join(outDir, 'yente-data'),
    port,
  });
  const logPath = join(outDir, 'yente.log');
  const indexS = reindex(bin, env, logPath);
  const api = await serve(bin, env, logPath, port);
  try {
    const info = await (await fetch(`${api.url}/algorithms`)).json();
    const lines = new Array(queries.length);
    let next = 0;
    // Batches of 10 queries, two requests in flight: the quality pass only needs to finish.
    await Promise.all(
      Array.from({ length: 2 }, async () => {
        while (next < queries.length) {
          const start = next;
          next += 10;
          const batch = queries.slice(start, start + 10);
          const answer = await match(
            api.url,
            batch.map((q) => [q.id, q.query]),
          );
          batch.forEach((q, k) => {
            const results = (answer.responses[q.id]?.results ?? []).flatMap((r) => {
              const record = exported.recordOf.get(r.id);
              if (!record) return [];
              return [{ ...record, score: r.score, status: r.match ? 'review' : 'clear' }];
            });
            lines[start + k] = JSON.stringify({ id: q.id, results });
          });
        }
      }),
    );
    const speed = await measure(speedQueries, (q) => match(api.url, [['q', q]]), [api.pid, node.pid]);
    return {
      name: 'yente',
      buildS: indexS,
      algorithm: info.default,
      quality: score('yente', lines),
      ...speed,
    };
  } finally {
    await api.stop();
    clearIndex(bin, env, logPath);
  }
}

const rows = [];
try {
  for (const name of ['in-process', 'opensearch']) rows.push(await vigil(name));
  rows.push(await yente());
} finally {
  await node.stop();
}
writeFileSync(join(outDir, 'summary.json'), JSON.stringify(rows, null, 2) + '\n');

const f = (x, d = 3) => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(d) : '—');
const sum = (r) => r.quality.summary;
console.log(`\nload average after: ${loadAverageText()}; node CPU counted: ${node.pid ? 'yes' : 'no (not ours)'}\n`);
console.log(
  `== ${basename(devSet)} (${queries.length} queries; Vigil status from its default bands, yente's \`match\`)`,
);
console.log(
  `| system | recall | recall@10 | top-1 | false alarms | precision | build / index s | screens/s at ${CONCURRENCY} | CPU ms per screen |`,
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  const s = sum(r);
  const label = r.name === 'yente' ? `yente ${YENTE_VERSION} (${r.algorithm})` : `Vigil ${r.name}`;
  console.log(
    `| ${label} | ${f(s.recall)} | ${f(s['recall@10'])} | ${f(s.top1)} | ${f(s.fa_rate)} | ${f(s.precision)} | ` +
      `${f(r.buildS, 1)} | ${f(r.screensPerS, 1)} | ${f(r.cpuMsPerScreen, 1)} |`,
  );
}
console.log('\nper kind (recall or false-alarm rate):');
console.log(`| kind | n | ${rows.map((r) => r.name).join(' | ')} |`);
console.log(`|---|---:|${rows.map(() => '---:').join('|')}|`);
for (const kind of rows[0].quality.kinds.map((k) => k.kind)) {
  const cells = rows.map((r) => {
    const k = r.quality.kinds.find((x) => x.kind === kind) ?? {};
    return f(k.recall ?? k.fa_rate);
  });
  const n = rows[0].quality.kinds.find((x) => x.kind === kind).n;
  console.log(`| ${kind} | ${n} | ${cells.join(' | ')} |`);
}
