// npm run bench:screening — starts the screening service against the shared lists and
// measures NATS request/reply latency (p50/p95/p99) and throughput for single screens
// and for 1,000-name bulk requests, the way the gateway calls it.
//
//   BENCH_LISTS_DIR   lists to load (default: ../shared/data/lists beside the repository)
//   BENCH_SINGLE      single screens to time (default 2000)
//   BENCH_BULK        1,000-name bulk requests to time (default 5)
//   BENCH_CONCURRENCY requests in flight for the throughput run (default 8)
//   BENCH_WARM_UP     screens (of altered names, 8 in flight) before any timing (default 4000)
//   DATABASE_URL      Postgres (default postgres://postgres@127.0.0.1:5432/vigil_test); a throwaway schema is used
// A private nats-server is started when the binary is on the PATH, so no other screening
// instance can answer the bench's requests; otherwise NATS_URL is used.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAverageText, processCpuMs } from '../../../bench/lib/host.mjs';
import { ensureBenchPostgres } from '../../../infra/scripts/infrastructure.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const SERVICE_DIR = resolve(here, '..');
const ROOT = resolve(SERVICE_DIR, '..', '..');
const LISTS_DIR = resolve(process.env.BENCH_LISTS_DIR ?? join(ROOT, '..', 'shared', 'data', 'lists'));
const QUERIES_FILE = join(ROOT, '..', 'shared', 'eval', 'dev-queries.jsonl');
const SINGLE = Number(process.env.BENCH_SINGLE ?? 2000);
const BULK = Number(process.env.BENCH_BULK ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 4000);
const { url: DATABASE_URL } = await ensureBenchPostgres();
const TARGET = { singleP99Ms: 10, bulkNamesPerS: 2000 };
// As in k8s/base/screening/deployment.yaml: a larger young generation, fewer scavenges per screen.
const SERVICE_NODE_OPTIONS = process.env.BENCH_NODE_OPTIONS ?? '--max-semi-space-size=32';
const load = loadAverageText;
const log = (m) => process.stdout.write(`[bench] ${m}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

if (!existsSync(LISTS_DIR)) {
  process.stderr.write(`[bench] no lists at ${LISTS_DIR}; set BENCH_LISTS_DIR\n`);
  process.exit(1);
}
if (!existsSync(join(SERVICE_DIR, 'dist', 'src', 'main.js'))) {
  log('building the screening service...');
  const built = spawnSync('npx', ['nx', 'run', '@vigil/screening:build', '--outputStyle=static'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(1);
}

const { connect } = await import('@nats-io/transport-node');
const { default: pg } = await import('pg');
const { freePort } = await import('@vigil/platform/testing');
const { natsConnectionOptions } = await import('@vigil/platform');
const { FEEDS } = await import('@vigil/proto');

const CALLER = {
  clientId: 'bench',
  tier: 'large',
  feeds: [...FEEDS],
};

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function summary(label, latencies, elapsedMs, units, unitName, cpu) {
  const s = [...latencies].sort((a, b) => a - b);
  return {
    [`service CPU ms/${unitName.replace(/s$/, '')}`]: +(cpu / units).toFixed(2),
    run: label,
    requests: latencies.length,
    'p50 ms': +percentile(s, 50).toFixed(2),
    'p95 ms': +percentile(s, 95).toFixed(2),
    'p99 ms': +percentile(s, 99).toFixed(2),
    'max ms': +s[s.length - 1].toFixed(2),
    [`${unitName}/s`]: Math.round((units / elapsedMs) * 1000),
  };
}

const cleanups = [];
async function cleanup() {
  while (cleanups.length)
    await cleanups
      .pop()()
      .catch(() => undefined);
}
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));

try {
  // NATS: private server when possible.
  let natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  const binary =
    spawnSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' }).stdout.trim() ||
    ['/usr/sbin/nats-server', '/usr/local/bin/nats-server'].find(existsSync);
  if (binary) {
    const port = await freePort();
    const store = await mkdtemp(join(tmpdir(), 'vigil-bench-nats-'));
    const nats = spawn(binary, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', store], { stdio: 'ignore' });
    cleanups.push(async () => {
      nats.kill('SIGTERM');
      await rm(store, { recursive: true, force: true });
    });
    natsUrl = `nats://127.0.0.1:${port}`;
  } else {
    log(`no nats-server binary; using ${natsUrl} (another screening instance on it would distort the figures)`);
  }
  let nc;
  for (let i = 0; !nc; i++) {
    try {
      // The options every service connection uses (no async stack trace built per request, above all).
      nc = await connect({ ...natsConnectionOptions(natsUrl, 'vigil-bench-screening'), timeout: 500 });
    } catch (e) {
      if (i > 50) throw e;
      await sleep(100);
    }
  }
  cleanups.push(() => nc.close());

  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  cleanups.push(async () => {
    await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db.end();
  });
  const env = {
    ...process.env,
    NODE_OPTIONS: SERVICE_NODE_OPTIONS,
    DATABASE_URL,
    NATS_URL: natsUrl,
    DB_SCHEMA: schema,
    LISTS_DIR,
    LOG_LEVEL: 'info',
  };
  const migrate = spawnSync(process.execPath, [join(SERVICE_DIR, 'dist', 'src', 'migrate.js')], {
    env,
    encoding: 'utf8',
  });
  if (migrate.status !== 0) throw new Error(`migrations failed: ${migrate.stderr}`);

  log(`starting the screening service on ${LISTS_DIR} (schema ${schema})`);
  const started = performance.now();
  // --profile writes a V8 CPU profile of the service to $TMPDIR/vigil-bench-profiles when it exits.
  const profile = process.argv.includes('--profile')
    ? ['--cpu-prof', '--cpu-prof-dir', join(tmpdir(), 'vigil-bench-profiles')]
    : [];
  const service = spawn(process.execPath, [...profile, join(SERVICE_DIR, 'dist', 'src', 'main.js')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  service.stdout.on('data', (d) => (output += d));
  service.stderr.on('data', (d) => (output += d));
  cleanups.push(
    () =>
      new Promise((res) => {
        if (service.exitCode !== null) return res();
        service.once('exit', res);
        service.kill('SIGTERM');
      }),
  );

  let seq = 0;
  const request = async (subject, data, timeout = 60_000) => {
    const msg = await nc.request(subject, JSON.stringify({ pattern: subject, data, id: String(++seq) }), { timeout });
    const body = msg.json();
    if (body.err)
      throw Object.assign(new Error(`${subject}: ${body.err.code} ${body.err.message}`), { code: body.err.code });
    return body.response;
  };

  // Ready = every list ingested and a screen answered (not INDEX_UNAVAILABLE).
  for (;;) {
    if (service.exitCode !== null) throw new Error(`the service exited:\n${output.slice(-3000)}`);
    try {
      const { lists } = await request('screening.v1.lists', {}, 2000);
      if (lists.length > 0 && lists.every((l) => l.status === 'active')) {
        await request('screening.v1.screen', { ...CALLER, entity: { name: 'warm up' } }, 5000);
        break;
      }
    } catch {
      // not listening, loading or not ready yet
    }
    await sleep(250);
  }
  const readyMs = performance.now() - started;
  const { lists } = await request('screening.v1.lists', {});
  const rss =
    Number(spawnSync('ps', ['-o', 'rss=', '-p', String(service.pid)], { encoding: 'utf8' }).stdout.trim()) / 1024;
  const ingestLines = [...output.matchAll(/"msg":"([a-z0-9-]+): version \d+ \((\d+) entities[^"]*in (\d+) ms"/g)];
  const builds = [
    ...output.matchAll(/"msg":"index built in (\d+) ms \([^;]+; (\d+) new versions; (\d+) sources, (\d+) entities\)"/g),
  ];
  console.table(
    lists.map((l) => ({
      source: l.source,
      feed: l.feed,
      entities: l.entityCount,
      'ingest ms': Number(ingestLines.find((m) => m[1] === l.source)?.[3] ?? NaN),
    })),
  );
  const entities = lists.reduce((n, l) => n + l.entityCount, 0);
  const lastBuild = builds[builds.length - 1];
  log(
    `${entities} entities from ${lists.length} sources ready in ${(readyMs / 1000).toFixed(1)} s: ingestion ${(ingestLines.reduce((n, m) => n + Number(m[3]), 0) / 1000).toFixed(1)} s, ` +
      `${builds.length} index build(s), the last over ${lastBuild?.[3]} sources / ${lastBuild?.[4]} entities in ${((Number(lastBuild?.[1]) || 0) / 1000).toFixed(1)} s; service RSS ${rss.toFixed(0)} MiB`,
  );

  const names = existsSync(QUERIES_FILE)
    ? readFileSync(QUERIES_FILE, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).query.name)
    : lists.map((l) => l.name);
  log(
    `${names.length} distinct query names${existsSync(QUERIES_FILE) ? ' (shared/eval/dev-queries.jsonl: listed, varied and unlisted names)' : ''}`,
  );

  const rows = [];
  // Warm-up until the JIT has settled (200 screens left TurboFan compiling through the timed run:
  // the service spent ~3 ms of CPU per screen at 1 in flight, three times what it spends warm).
  // Warm-up names are the development names with every token changed (a letter appended), so the
  // index's caches warm on other tokens and the timed names are met as cold as before.
  const altered = names.map((name) => name.replace(/\p{L}+/gu, (token) => `${token}q`));
  let warm = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (warm < WARM_UP) {
        const i = warm++;
        await request('screening.v1.screen', { ...CALLER, entity: { name: altered[i % altered.length] } });
      }
    }),
  );

  // Single screens, one at a time: latency as one caller sees it.
  log(`timing at host load average ${load()}`);
  let latencies = [];
  let t0 = performance.now();
  let cpu0 = processCpuMs(service.pid);
  for (let i = 0; i < SINGLE; i++) {
    const s = performance.now();
    await request('screening.v1.screen', { ...CALLER, entity: { name: names[i % names.length] } });
    latencies.push(performance.now() - s);
  }
  rows.push(
    summary(
      'screen, 1 in flight',
      latencies,
      performance.now() - t0,
      SINGLE,
      'screens',
      processCpuMs(service.pid) - cpu0,
    ),
  );

  // Single screens, CONCURRENCY in flight: throughput.
  latencies = [];
  let next = 0;
  t0 = performance.now();
  cpu0 = processCpuMs(service.pid);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < SINGLE) {
        const i = next++;
        const s = performance.now();
        await request('screening.v1.screen', { ...CALLER, entity: { name: names[(i * 7) % names.length] } });
        latencies.push(performance.now() - s);
      }
    }),
  );
  rows.push(
    summary(
      `screen, ${CONCURRENCY} in flight`,
      latencies,
      performance.now() - t0,
      SINGLE,
      'screens',
      processCpuMs(service.pid) - cpu0,
    ),
  );

  // Bulk: 1,000 names per request, after one untimed request (as the singles had their warm-up).
  await request('screening.v1.bulk-screen', { ...CALLER, names: names.slice(0, 1000) }, 120_000);
  latencies = [];
  t0 = performance.now();
  cpu0 = processCpuMs(service.pid);
  for (let b = 0; b < BULK; b++) {
    const batch = Array.from({ length: 1000 }, (_, i) => names[(b * 1000 + i) % names.length]);
    const s = performance.now();
    const res = await request('screening.v1.bulk-screen', { ...CALLER, names: batch }, 120_000);
    latencies.push(performance.now() - s);
    if (res.results.length !== 1000) throw new Error('bulk answered the wrong number of names');
  }
  rows.push(
    summary(
      'bulk, 1,000 names',
      latencies,
      performance.now() - t0,
      BULK * 1000,
      'names',
      processCpuMs(service.pid) - cpu0,
    ),
  );

  console.table(rows);
  const single = rows[0]['p99 ms'];
  const bulk = rows[2]['names/s'];
  log(
    `target single p99 ≤ ${TARGET.singleP99Ms} ms: ${single <= TARGET.singleP99Ms ? 'met' : 'NOT met'} (${single} ms); ` +
      `target bulk ≥ ${TARGET.bulkNamesPerS} names/s: ${bulk >= TARGET.bulkNamesPerS ? 'met' : 'NOT met'} (${bulk}/s); ` +
      `service flags NODE_OPTIONS=${SERVICE_NODE_OPTIONS}`,
  );
  const rssAfter =
    Number(spawnSync('ps', ['-o', 'rss=', '-p', String(service.pid)], { encoding: 'utf8' }).stdout.trim()) / 1024;
  log(`service RSS after the runs: ${rssAfter.toFixed(0)} MiB; host load average ${load()} on ${cpus().length} cores`);
} catch (error) {
  process.stderr.write(`[bench] ${error.stack ?? error}\n`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
