#!/usr/bin/env node
// npm run eval:matching — match quality of vigil-screen on the labelled development set.
//
// Runs `vigil-screen batch --lists ../shared/data/lists` (paths relative to the repo root)
// on ../shared/eval/dev-queries.jsonl with each line's `query` flattened, scores the
// output with ../shared/eval/score.py and prints its table and summary.
//
//   node bench/eval-matching.mjs [--queries FILE] [--lists DIR] [--out FILE] [-- extra vigil-screen options]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const passThrough = args.includes('--') ? args.splice(args.indexOf('--')).slice(1) : [];
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? resolve(args[i + 1]) : fallback;
};
const queriesPath = option('--queries', resolve(root, '../shared/eval/dev-queries.jsonl'));
const listsDir = option('--lists', resolve(root, '../shared/data/lists'));
const scorer = resolve(root, '../shared/eval/score.py');
const outPath = option('--out', join(mkdtempSync(join(tmpdir(), 'vigil-eval-')), 'results.jsonl'));
const cli = join(root, 'services/libs/matching/dist/cli/main.js');

for (const [what, path] of [['queries', queriesPath], ['lists', listsDir], ['scorer', scorer]]) {
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

// The evaluation file nests the product's fields under `query`; the CLI takes them flat.
const input = readFileSync(queriesPath, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => {
    const q = JSON.parse(l);
    return JSON.stringify({ id: q.id, ...q.query });
  })
  .join('\n');

const started = performance.now();
const child = spawn(process.execPath, [cli, 'batch', '--lists', listsDir, ...passThrough], { stdio: ['pipe', 'pipe', 'inherit'] });
const chunks = [];
child.stdout.on('data', (c) => chunks.push(c));
child.stdin.end(input + '\n');
const code = await new Promise((res) => child.on('close', res));
if (code !== 0) {
  console.error(`eval:matching: vigil-screen exited with ${code}`);
  process.exit(1);
}
writeFileSync(outPath, Buffer.concat(chunks));
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`vigil-screen batch: ${input.split('\n').length} queries in ${seconds} s (including list loading); results in ${outPath}\n`);

const scored = spawnSync('python3', [scorer, queriesPath, outPath], { encoding: 'utf8' });
process.stdout.write(scored.stdout);
if (scored.stderr) process.stderr.write(scored.stderr);
process.exit(scored.status ?? 1);
