#!/usr/bin/env node
// npm run bench:payments — the latency of one payment message at the shared lists: each test
// vector of services/screening/test/payment-messages (pacs.008, pacs.009, pain.001, MT103) parsed
// and its lookups answered by the in-process engine as the screening service builds them (one
// screenMany batch per message), ROUNDS times each. Reports p50/p99 per message type; the service
// adds its log write (one row per message) and NATS on top. Needs the built packages.
//
//   node bench/bench-payments.mjs [--lists DIR] [--rounds N]   (default ../shared/data/lists, 300)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadListsFromDir } from '../services/libs/lists/dist/node/load-dir.js';
import { InProcessEngine } from '../services/screening/dist/src/index/in-process.engine.js';
import { parsePaymentMessage } from '../services/screening/dist/src/payments/payment-message.parser.js';
import { planLookups } from '../services/screening/dist/src/payments/payment-screening.service.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const listsDir = arg('--lists', join(root, '../shared/data/lists'));
const rounds = Number(arg('--rounds', '300'));
if (!existsSync(listsDir)) {
  console.error(`no list snapshot at ${listsDir}`);
  process.exit(2);
}

const { entities } = await loadListsFromDir(listsDir);
const byList = new Map();
for (const e of entities) byList.set(e.listId, [...(byList.get(e.listId) ?? []), e]);
const engine = new InProcessEngine();
await engine.load(
  [...byList].map(([source, list]) => ({
    info: {
      source,
      feed: 'sanctions',
      dataset: source.replace(/-/g, '_'),
      versionId: 1,
      sha256: ''.padStart(64, '0'),
      fetchedAt: new Date(0).toISOString(),
      entityCount: list.length,
    },
    entities: list,
  })),
);
const scope = { sources: [...byList.keys()], limit: 5 };

const vectorsDir = join(root, 'services/screening/test/payment-messages');
const vectors = readdirSync(vectorsDir).map((f) => ({ file: f, text: readFileSync(join(vectorsDir, f), 'utf8') }));

/** What the service does before its log write: parse, plan, one engine batch. */
async function screenOnce(text) {
  const message = parsePaymentMessage(text);
  const { lookups } = planLookups(message);
  await engine.screenMany(
    lookups.map((l) => l.query),
    scope,
  );
  return lookups.length;
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
console.log(`lists: ${listsDir} (${entities.length} entities in ${byList.size} sources); ${rounds} rounds per message`);
const all = [];
for (const { file, text } of vectors) {
  let lookups = 0;
  for (let k = 0; k < 20; k++) lookups = await screenOnce(text);
  const times = [];
  for (let k = 0; k < rounds; k++) {
    const t = performance.now();
    await screenOnce(text);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  all.push(...times);
  console.log(
    `${file.padEnd(36)} ${String(lookups).padStart(3)} lookups  p50 ${pct(times, 0.5).toFixed(2)} ms  p99 ${pct(times, 0.99).toFixed(2)} ms`,
  );
}
all.sort((a, b) => a - b);
console.log(`all messages: p50 ${pct(all, 0.5).toFixed(2)} ms  p99 ${pct(all, 0.99).toFixed(2)} ms`);
await engine.close();
