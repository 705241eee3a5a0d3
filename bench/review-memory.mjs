// npm run bench:review-memory — the analyst work the false-positive memory saves (issue #19).
//
// Starts the screening service on the shared lists, screens every development query as one
// client, lets a scripted analyst work the review queue from the labels (a review whose entity
// the query does not expect is a false positive: approved with a memory reason; one it expects is
// blocked as a confirmed match), and screens the same queries again, several times, counting the
// reviews each pass raises. A review is about a screening's best unsuppressed hit, so clearing it
// can bring the next candidate (often the same person on another list) up for review: the
// passes show how fast the queue converges. It fails if a later pass stops flagging an expected
// entity the first one flagged (the memory must never clear a true match).
//
//   REVIEW_MEMORY_QUERIES  a labelled JSONL file (default ../shared/eval/dev-queries.jsonl)
//   BENCH_LISTS_DIR        lists to load (default ../shared/data/lists beside the repository)
//   REVIEW_MEMORY_PASSES   screenings of the whole set, the queue worked after each (default 3)
//   DATABASE_URL           Postgres (default postgres://postgres@127.0.0.1:5432/vigil_test); a throwaway schema is used
// A private nats-server is started (the binary must be on the PATH).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBenchPostgres } from '../infra/scripts/infrastructure.mjs';
import { binaryOf } from '../infra/scripts/machine.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVICE_DIR = join(ROOT, 'services', 'screening');
const LISTS_DIR = resolve(process.env.BENCH_LISTS_DIR ?? join(ROOT, '..', 'shared', 'data', 'lists'));
const QUERIES_FILE = resolve(process.env.REVIEW_MEMORY_QUERIES ?? join(ROOT, '..', 'shared', 'eval', 'dev-queries.jsonl'));
const { url: DATABASE_URL } = await ensureBenchPostgres();
const CONCURRENCY = 4;
const ROUNDS = Number(process.env.REVIEW_MEMORY_PASSES ?? 3);
const CLIENT = 'review-memory-bench';
const ANALYST = { userId: 'bench-analyst', email: 'analyst@bench.example', memberRole: 'analyst' };
const log = (m) => process.stdout.write(`[review-memory] ${m}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

for (const [what, path] of [['lists', LISTS_DIR], ['queries', QUERIES_FILE], ['the built screening service', join(SERVICE_DIR, 'dist', 'src', 'main.js')]]) {
  if (!existsSync(path)) {
    process.stderr.write(`[review-memory] no ${what} at ${path}\n`);
    process.exit(1);
  }
}

const { connect } = await import('@nats-io/transport-node');
const { default: pg } = await import('pg');
const { freePort } = await import('@vigil/platform/testing');
const { FEEDS } = await import('@vigil/proto');

const queries = readFileSync(QUERIES_FILE, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));

// The labels' list ids, as the product names its sources.
const LABEL_SOURCES = { un: 'un-sc', os: 'opensanctions' };
const productId = (id) => {
  const [source, ...rest] = id.split(':');
  return `${LABEL_SOURCES[source] ?? source}:${rest.join(':')}`;
};
const entityOf = (q) => ({
  name: q.query.name,
  ...(q.query.dob ? { dateOfBirth: q.query.dob } : {}),
  ...(q.query.country ? { nationality: q.query.country } : {}),
  ...(q.query.entityType ? { entityType: q.query.entityType } : {}),
});
const keyOf = (e) => JSON.stringify([e.name ?? null, e.dateOfBirth ?? null, e.nationality ?? e.country ?? null, e.entityType ?? null]);

const cleanups = [];
const cleanup = async () => {
  while (cleanups.length) await cleanups.pop()().catch(() => undefined);
};
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));

try {
  const port = await freePort();
  const store = await mkdtemp(join(tmpdir(), 'vigil-review-memory-nats-'));
  const nats = spawn(binaryOf('nats-server') ?? 'nats-server', ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', store], { stdio: 'ignore' });
  cleanups.push(async () => {
    nats.kill('SIGTERM');
    await rm(store, { recursive: true, force: true });
  });
  const natsUrl = `nats://127.0.0.1:${port}`;
  let nc;
  for (let i = 0; !nc; i++) {
    try {
      nc = await connect({ servers: natsUrl, timeout: 500 });
    } catch (error) {
      if (i > 50) throw error;
      await sleep(100);
    }
  }
  cleanups.push(() => nc.close());

  const schema = `revmem_${randomBytes(4).toString('hex')}`;
  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  cleanups.push(async () => {
    await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db.end();
  });
  const env = { ...process.env, DATABASE_URL, NATS_URL: natsUrl, DB_SCHEMA: schema, LISTS_DIR, LOG_LEVEL: 'warn' };
  const migrate = spawnSync(process.execPath, [join(SERVICE_DIR, 'dist', 'src', 'migrate.js')], { env, encoding: 'utf8' });
  if (migrate.status !== 0) throw new Error(`migrations failed: ${migrate.stderr}`);
  log(`starting the screening service on ${LISTS_DIR} (schema ${schema})`);
  const service = spawn(process.execPath, [join(SERVICE_DIR, 'dist', 'src', 'main.js')], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  service.stderr.on('data', (d) => (errors += d));
  cleanups.push(
    () =>
      new Promise((done) => {
        if (service.exitCode !== null) return done();
        service.once('exit', done);
        service.kill('SIGTERM');
      }),
  );

  let seq = 0;
  const request = async (subject, data, timeout = 60_000) => {
    const msg = await nc.request(subject, JSON.stringify({ pattern: subject, data, id: String(++seq) }), { timeout });
    const body = msg.json();
    if (body.err) throw new Error(`${subject}: ${body.err.code} ${body.err.message}`);
    return body.response;
  };
  const caller = { clientId: CLIENT, tier: 'large', feeds: [...FEEDS] };

  for (;;) {
    if (service.exitCode !== null) throw new Error(`the service exited:\n${errors.slice(-3000)}`);
    try {
      const { lists } = await request('screening.v1.lists', {}, 2000);
      if (lists.length > 0 && lists.every((l) => l.status === 'active')) {
        await request('screening.v1.screen', { ...caller, clientId: 'warm-up', entity: { name: 'warm up' } }, 5000);
        break;
      }
    } catch {
      // not ready yet
    }
    await sleep(500);
  }
  log(`${queries.length} labelled queries from ${QUERIES_FILE}`);

  /** Screens every query; answers, per query, the screen response. */
  async function pass() {
    const responses = new Array(queries.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < queries.length) {
          const i = next++;
          responses[i] = await request('screening.v1.screen', { ...caller, entity: entityOf(queries[i]) });
        }
      }),
    );
    return responses;
  }
  const counts = () => request('screening.v1.reviews.list', { clientId: CLIENT, limit: 1 }).then((r) => r.counts);
  /** Expected entities flagged (review or blocked) per query. */
  const flaggedExpected = (responses) =>
    responses.map((res, i) => {
      const expected = new Set(queries[i].expect.map(productId));
      return res.results.filter((r) => r.status !== 'clear' && expected.has(r.id)).map((r) => r.id);
    });

  // The analyst works the queue from the labels.
  const byKey = new Map(queries.map((q) => [keyOf(entityOf(q)), q]));
  async function workQueue() {
    const work = { falsePositive: 0, truePositive: 0, remembered: 0, unmatched: 0 };
    for (;;) {
      // Every decided review leaves the pending list, so the first page is always the next one.
      const page = await request('screening.v1.reviews.list', { clientId: CLIENT, status: 'pending', limit: 500 });
      if (page.reviews.length === 0) return work;
      for (const review of page.reviews) {
        const kase = await request('screening.v1.reviews.case', { clientId: CLIENT, id: review.id });
        const query = byKey.get(keyOf(kase.searched));
        const wanted = new Set(query ? [...query.expect, ...query.acceptable].map(productId) : []);
        const truePositive = wanted.has(review.matched_entity_id);
        const reasonCode = truePositive
          ? 'confirmed_match'
          : query?.kind === 'neg:dob_conflict' && query.query.dob
            ? 'different_person_dob'
            : 'name_only_coincidence';
        const decided = await request('screening.v1.reviews.decide', {
          clientId: CLIENT,
          id: review.id,
          action: truePositive ? 'block' : 'approve',
          reasonCode,
          actor: ANALYST,
        });
        if (!query) work.unmatched++;
        if (truePositive) work.truePositive++;
        else work.falsePositive++;
        if (decided.rememberedId) work.remembered++;
      }
    }
  }

  const started = performance.now();
  const rows = [];
  let previous = 0;
  let firstFlags;
  let lost = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const responses = await pass();
    const total = (await counts()).all;
    const raised = total - previous;
    previous = total;
    const flags = flaggedExpected(responses);
    if (!firstFlags) firstFlags = flags;
    else
      lost += firstFlags.reduce((n, ids, i) => n + ids.filter((id) => !flags[i].includes(id)).length, 0);
    const work = await workQueue();
    rows.push({
      pass: round,
      'reviews raised': raised,
      'of which false positives': work.falsePositive,
      'true matches': work.truePositive,
      'screens cleared by memory': responses.filter((r) => r.results.some((x) => x.suppressedBy)).length,
      'screens blocked': responses.filter((r) => r.status === 'blocked').length,
      ...(work.unmatched ? { 'not traced to a query': work.unmatched } : {}),
    });
    log(`pass ${round}: ${raised} reviews raised, ${work.falsePositive} false positives approved with a memory reason`);
  }
  console.table(rows);
  log(
    `reviews raised by each screening of the same ${queries.length} queries, the analyst deciding every review between passes: ` +
      `${rows.map((r) => r['reviews raised']).join(' → ')} (false positives ${rows.map((r) => r['of which false positives']).join(' → ')}); ` +
      `expected entities flagged in pass 1 but not later: ${lost}; ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  if (lost > 0) process.exitCode = 1;
} finally {
  await cleanup();
}
