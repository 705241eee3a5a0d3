// Parses every list under a directory (default: the shared snapshots, ../shared/data/lists
// beside the repository) with the built package and prints per-source entity counts and the
// time it took. Run after `npm run build -w @vigil/lists`:
//   npm run parse:shared -w @vigil/lists [-- <dir>]
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadListsFromDir } from '../dist/node/load-dir.js';

const here = dirname(fileURLToPath(import.meta.url));
const dir = resolve(process.argv[2] ?? resolve(here, '../../../../../shared/data/lists'));

const started = performance.now();
const { sources, entities, skipped } = await loadListsFromDir(dir);
const elapsed = performance.now() - started;

const rows = sources.map((s) => ({
  listId: s.listId,
  format: s.format,
  entities: s.entityCount,
  files: s.files.join(' + '),
  sha256: s.sha256.slice(0, 12),
}));
console.table(rows);
const names = entities.reduce((n, e) => n + e.names.length, 0);
console.log(`${entities.length} entities, ${names} names, from ${sources.length} sources in ${dir}`);
console.log(`skipped: ${skipped.join(', ') || '(none)'}`);
console.log(
  `parse time: ${elapsed.toFixed(0)} ms, heap used: ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`,
);
