// Reads a frozen algorithm's golden fixture (test/fixtures/golden-<v>/, made by
// bench/eval/make-golden-<v>.mjs) and screens its queries again. Lives under src/cli because the
// core may not read files.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { Entity } from '@vigil/lists';
import { getAlgorithm } from '../algorithm.js';
import { canonicalOutput, fingerprint } from './golden.js';

const fixtureDir = (version: string): string =>
  resolve(dirname(fileURLToPath(import.meta.url)), `../../test/fixtures/golden-${version}`);

/** The list records of a golden fixture: real list entries, the ones the version ranks for the development queries. */
export function goldenFixtureEntities(version: string): Entity[] {
  return JSON.parse(
    gunzipSync(readFileSync(resolve(fixtureDir(version), `${version}-entities.json.gz`))).toString('utf8'),
  ) as Entity[];
}

type GoldenQuery = { id: string; name: string; dob?: string; country?: string; entityType?: 'individual' };

/**
 * Screens every query of the fixture `version` ('v1', 'v2', 'v3') with `algorithm` over the fixture's
 * entities; returns how many queries there were and the ids whose full output (explanations
 * included) differs from the recorded fingerprint.
 */
export function screenGoldenFixture(version: string, algorithm: string): { queries: number; changed: string[] } {
  const dir = fixtureDir(version);
  const entities = goldenFixtureEntities(version);
  const queries = readFileSync(resolve(dir, `${version}-queries.jsonl`), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as GoldenQuery);
  const golden = JSON.parse(readFileSync(resolve(dir, `${version}-golden.json`), 'utf8')) as Record<string, string>;
  const screener = getAlgorithm(algorithm).build(entities);
  const changed: string[] = [];
  for (const q of queries)
    if (fingerprint(canonicalOutput(screener.screen(q, 10))) !== golden[q.id]) changed.push(q.id);
  return { queries: queries.length, changed };
}
