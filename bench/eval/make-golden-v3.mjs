#!/usr/bin/env node
// Writes the fixture that freezes vigil-v3 (services/libs/matching/test/fixtures/golden-v3/), as
// make-golden-v2.mjs does for v2: the queries of the three development sets, the list records v3
// ranks in its top 5 for them on the shared lists, and a fingerprint of v3's full output for each
// query over that subset. v3 was frozen when it became the default (issue #32); run this only to
// re-freeze after a deliberate change to v3: new behaviour gets a new name.
//
//   node bench/eval/make-golden-v3.mjs
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { loadListsFromDir } from '@vigil/lists/node';

const ALGORITHM = 'vigil-v3';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dist = resolve(root, 'services/libs/matching/dist');
const { getAlgorithm } = await import(pathToFileURL(resolve(dist, 'index.js')).href);
const { canonicalOutput, fingerprint } = await import(pathToFileURL(resolve(dist, 'cli/golden.js')).href);
const out = resolve(root, 'services/libs/matching/test/fixtures/golden-v3');
mkdirSync(out, { recursive: true });

const queries = [
  resolve(root, '../shared/eval/dev-queries.jsonl'),
  resolve(root, 'bench/eval/dev-v2.jsonl'),
  resolve(root, 'bench/eval/dev-scripts.jsonl'),
].flatMap((p) =>
  readFileSync(p, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const q = JSON.parse(l);
      return { id: q.id, ...q.query };
    }),
);
const { entities } = await loadListsFromDir(resolve(root, '../shared/data/lists'));
const full = getAlgorithm(ALGORITHM).build(entities);
const keep = new Set();
for (const q of queries) for (const m of full.screen(q, 5)) keep.add(m.entity);
// only the fields scoring reads, so the fixture stays small
const subset = entities
  .filter((e) => keep.has(e))
  .map((e) => ({
    ...e,
    names: e.names.map(({ full, strength, parts }) => ({
      full,
      strength,
      ...(parts?.family ? { parts: { family: parts.family } } : {}),
    })),
    birthPlaces: [],
    addresses: e.addresses.filter((a) => a.country).map((a) => ({ country: a.country })),
    identifiers: [],
    programs: [],
  }));
const screener = getAlgorithm(ALGORITHM).build(subset);
const golden = {};
for (const q of queries) golden[q.id] = fingerprint(canonicalOutput(screener.screen(q, 10)));
writeFileSync(resolve(out, 'v3-entities.json.gz'), gzipSync(JSON.stringify(subset), { level: 9 }));
writeFileSync(resolve(out, 'v3-queries.jsonl'), queries.map((q) => JSON.stringify(q)).join('\n') + '\n');
writeFileSync(resolve(out, 'v3-golden.json'), JSON.stringify(golden, null, 0).replace(/,"/g, ',\n"') + '\n');
console.log(`${queries.length} queries, ${subset.length} of ${entities.length} list records → ${out}`);
