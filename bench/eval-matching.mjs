#!/usr/bin/env node
// npm run eval:matching — match quality of vigil-screen on the labelled development sets.
//
// Runs `vigil-screen batch --lists ../shared/data/lists` once per algorithm (vigil-v1, vigil-v2
// and vigil-v3 by default) on the development sets, ../shared/eval/dev-queries.jsonl and this
// repository's bench/eval/dev-v2.jsonl (the weak kinds of issue #23, made by
// bench/eval/make-dev-v2.mjs) and bench/eval/dev-scripts.jsonl (original-script names and their
// twins on other lists, issue #32, made by bench/eval/make-dev-scripts.mjs), scores each with
// ../shared/eval/score.py and prints them per kind and overall (r_all: every expected record
// flagged), the algorithms side by side.
//
//   node bench/eval-matching.mjs [--sets FILE,FILE] [--algorithms a,b] [--lists DIR] [--out DIR] [-- extra vigil-screen options]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const passThrough = args.includes('--') ? args.splice(args.indexOf('--')).slice(1) : [];
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? resolve(args[i + 1]) : fallback;
};
const list = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1].split(',') : fallback;
};
const sets = list('--sets', [
  resolve(root, '../shared/eval/dev-queries.jsonl'),
  resolve(root, 'bench/eval/dev-v2.jsonl'),
  resolve(root, 'bench/eval/dev-scripts.jsonl'),
]).map((p) => resolve(p));
const algorithms = list('--algorithms', ['vigil-v1', 'vigil-v2', 'vigil-v3']);
const listsDir = option('--lists', resolve(root, '../shared/data/lists'));
const scorer = resolve(root, '../shared/eval/score.py');
const outDir = option('--out', mkdtempSync(join(tmpdir(), 'vigil-eval-')));
mkdirSync(outDir, { recursive: true });
const cli = join(root, 'services/libs/matching/dist/cli/main.js');

for (const [what, path] of [...sets.map((p) => ['queries', p]), ['lists', listsDir], ['scorer', scorer]]) {
  if (!existsSync(path)) {
    console.error(`eval:matching: ${what} not found at ${path}`);
    process.exit(1);
  }
}

if (!existsSync(cli)) {
  console.error('eval:matching: building @vigil/matching (and @vigil/lists) first');
  const built = spawnSync('npx', ['nx', 'run', '@vigil/matching:build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

// The evaluation files nest the product's fields under `query`; the CLI takes them flat. Both
// sets go through one process per algorithm (their ids differ), so the lists load once each.
const perSet = sets.map((path) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l)),
);
const input =
  perSet
    .flat()
    .map((q) => JSON.stringify({ id: q.id, ...q.query }))
    .join('\n') + '\n';

async function run(algorithm) {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'batch', '--lists', listsDir, '--algorithm', algorithm, ...passThrough], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const chunks = [];
  child.stdout.on('data', (c) => chunks.push(c));
  child.stdin.end(input);
  const code = await new Promise((res) => child.on('close', res));
  if (code !== 0) {
    console.error(`eval:matching: vigil-screen --algorithm ${algorithm} exited with ${code}`);
    process.exit(1);
  }
  const byId = new Map(
    Buffer.concat(chunks)
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => [JSON.parse(l).id, l]),
  );
  const scored = [];
  sets.forEach((path, k) => {
    const out = join(outDir, `${algorithm}.${basename(path, '.jsonl')}.results.jsonl`);
    writeFileSync(
      out,
      perSet[k].map((q) => byId.get(q.id) ?? JSON.stringify({ id: q.id, results: [] })).join('\n') + '\n',
    );
    const res = spawnSync('python3', [scorer, path, out, '--json'], { encoding: 'utf8' });
    if (res.status !== 0) {
      process.stderr.write(res.stderr);
      process.exit(1);
    }
    scored.push(JSON.parse(res.stdout.slice(0, res.stdout.lastIndexOf('\nsummary:'))));
  });
  console.log(
    `${algorithm}: ${perSet.flat().length} queries in ${((performance.now() - started) / 1000).toFixed(1)} s (including list loading and the index build)`,
  );
  return scored;
}

const results = [];
for (const a of algorithms) results.push(await run(a));
console.log(`results in ${outDir}\n`);

const f = (x) => (x === undefined || x === null ? '     -' : x.toFixed(3).padStart(6));
const METRICS = [
  ['recall', 'recall'],
  ['recall_all', 'r_all'],
  ['recall@10', 'r@10'],
  ['top1', 'top1'],
  ['fa_rate', 'FA'],
];
sets.forEach((path, k) => {
  console.log(`== ${basename(path)}  (${perSet[k].length} queries; columns: ${algorithms.join(' | ')})`);
  const head = METRICS.map(([, label]) => algorithms.map((a, i) => (i === 0 ? label : '').padStart(6)).join(' ')).join(
    ' │ ',
  );
  console.log(`${'kind'.padEnd(36)} ${'n'.padStart(4)}  ${head}`);
  const kinds = results[0][k].kinds.map((r) => r.kind);
  for (const kind of kinds) {
    const rows = results.map((r) => r[k].kinds.find((x) => x.kind === kind) ?? {});
    console.log(
      `${kind.padEnd(36)} ${String(rows[0].n).padStart(4)}  ${METRICS.map(([m]) => rows.map((r) => f(r[m])).join(' ')).join(' │ ')}`,
    );
  }
  const sums = results.map((r) => r[k].summary);
  console.log(
    `${'OVERALL'.padEnd(36)} ${String(sums[0].queries).padStart(4)}  ${METRICS.map(([m]) => sums.map((s) => f(s[m])).join(' ')).join(' │ ')}`,
  );
  for (let i = 0; i < algorithms.length; i++) {
    const s = sums[i];
    console.log(
      `summary ${algorithms[i]}: recall=${s.recall.toFixed(3)} recall_all=${s.recall_all.toFixed(3)} recall@10=${s['recall@10'].toFixed(3)} top1=${s.top1.toFixed(3)} fa_rate=${s.fa_rate.toFixed(3)} precision=${s.precision.toFixed(3)} f1=${s.f1.toFixed(3)}${s.policy_fa_rate !== null && s.policy_fa_rate !== undefined ? ` policy_fa_rate=${s.policy_fa_rate.toFixed(3)}` : ''} missing=${s.missing}`,
    );
  }
  console.log('');
});
