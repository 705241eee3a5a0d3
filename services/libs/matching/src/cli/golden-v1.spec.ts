// vigil-v1 is frozen: every result it gives on the development queries (both sets), explanations
// included, must stay byte for byte what it was when v2 was introduced. The fixture is committed
// (test/fixtures/golden-v1, made by bench/eval/make-golden-v1.mjs) rather than read from ../shared, so that
// a change to the shared lists cannot fail this test and a change to v1 cannot pass it.
// It lives under src/cli because the core may not read files.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { Entity } from '@vigil/lists';
import { getAlgorithm } from '../algorithm.js';
import { canonicalOutput, fingerprint } from './golden.js';

const dir = resolve(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/golden-v1');

describe('vigil-v1 golden results', () => {
  it('screens every development query exactly as it did when frozen', () => {
    const entities = JSON.parse(gunzipSync(readFileSync(resolve(dir, 'v1-entities.json.gz'))).toString('utf8')) as Entity[];
    const queries = readFileSync(resolve(dir, 'v1-queries.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map(
        (l) => JSON.parse(l) as { id: string; name: string; dob?: string; country?: string; entityType?: 'individual' },
      );
    const golden = JSON.parse(readFileSync(resolve(dir, 'v1-golden.json'), 'utf8')) as Record<string, string>;
    expect(queries.length).toBeGreaterThan(1900);
    const screener = getAlgorithm('vigil-v1').build(entities);
    const changed: string[] = [];
    for (const q of queries)
      if (fingerprint(canonicalOutput(screener.screen(q, 10))) !== golden[q.id]) changed.push(q.id);
    expect(changed).toEqual([]);
  });
});
