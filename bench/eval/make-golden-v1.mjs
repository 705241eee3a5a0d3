#!/usr/bin/env node
// Writes the fixture that freezes vigil-v1 (services/libs/matching/test/fixtures/golden-v1/): the queries of
// both development sets, the list records v1 returns for them on the shared lists (with every
// record their names share a token with would be too many; these are the ones that rank), and a
// fingerprint of v1's full output for each query over that fixture. Run it only to re-freeze
// after a deliberate change to v1, which should not happen: new behaviour gets a new name.
//
//   node bench/eval/make-golden-v1.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { loadListsFromDir } from '@vigil/lists/node';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dist = resolve(root, 'services/libs/matching/dist');
const { getAlgorithm } = await import(pathToFileURL(resolve(dist, 'index.js')).href);
const { canonicalOutput, fingerprint } = await import(pathToFileURL(resolve(dist, 'cli/golden.js')).href);
const out = resolve(root, 'services/libs/matching/test/fixtures/golden-v1');

const queries = [resolve(root, '../shared/eval/dev-queries.jsonl'), resolve(root, 'bench/eval/dev-v2.jsonl')].flatMap(
  (p) =>
    readFileSync(p, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => {
        const q = JSON.parse(l);
        return { id: q.id, ...q.query };
      }),
);
const { entities } = await loadListsFromDir(resolve(root, '../shared/data/lists'));
const full = getAlgorithm('vigil-v1').build(entities);
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
const screener = getAlgorithm('vigil-v1').build(subset);
const golden = {};
for (const q of queries) golden[q.id] = fingerprint(canonicalOutput(screener.screen(q, 10)));
// Gzipped: the entity subset is ~3.7 MB as text, ~0.5 MB packed.
writeFileSync(resolve(out, 'v1-entities.json.gz'), gzipSync(JSON.stringify(subset), { level: 9 }));
writeFileSync(resolve(out, 'v1-queries.jsonl'), queries.map((q) => JSON.stringify(q)).join('\n') + '\n');
writeFileSync(resolve(out, 'v1-golden.json'), JSON.stringify(golden, null, 0).replace(/,"/g, ',\n"') + '\n');
console.log(`${queries.length} queries, ${subset.length} of ${entities.length} list records → ${out}`);
