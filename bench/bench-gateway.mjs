#!/usr/bin/env node
// npm run bench:gateway — throughput and latency of POST /api/v1/screen through the whole path:
// API-key guard (cached), Redis rate limiter, Postgres quota upsert, NATS request to the
// screening service with the shared lists loaded, and back.
//
// It starts its own stack (a private nats-server with JetStream, the built auth, screening
// and gateway services in throwaway Postgres schemas), provisions one large-tier client,
// lifts its quota, replays the development queries with autocannon and prints p50/p99
// latency and requests/s. Build first: npx nx run-many -t build -p @vigil/gateway @vigil/auth @vigil/screening
//
//   node bench/bench-gateway.mjs [--duration 20] [--connections 8] [--lists ../shared/data/lists] [--json] [--profile]
//                                [--replicas 2] [--no-ceiling] [--runs 5]
//
// In the same invocation it runs the ceiling (bench/lib/ceiling.mjs: edge → NATS → responder with no
// work, the same bodies, connections and reply size) and prints ratio = real / ceiling, which stays
// comparable when the shared machine speeds up or slows down between runs.
//
// --replicas 2 runs two gateways and two screening processes (one NATS queue group), the load
// split over both gateways, and checks the path stays correct with replicas: the quota counted
// (after the gateways give their leases back) and the screening logs written both equal the
// screens answered. Speed on 2 cores is not the point of that mode.
//
// Why 8 connections: a bank integration calls with a small pool of workers, and the targets
// (≥ 1,000 req/s with p99 ≤ 25 ms) only make sense together at a modest concurrency. By
// Little's law 1,000 req/s with N requests in flight means an N ms mean latency: 32
// connections would need a 32 ms mean, so a 25 ms p99 could never be met at any speed; 8
// leaves an 8 ms mean under a 25 ms p99. Each target is reported on its own, with the CPU
// every part of the path spent per request and the load average, since the machine is shared.
//
// The services run with the Node flags of their deployment (k8s: NODE_OPTIONS) and on the Node that runs this
// script: `/path/to/node24/bin/node bench/bench-gateway.mjs` measures the container images' runtime.
import autocannon from 'autocannon';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { freePort } from '@vigil/platform/testing';
import { FEEDS } from '@vigil/proto';
import { runCeiling } from './lib/ceiling.mjs';
import { loadAverage, loadAverageText } from './lib/host.mjs';
import { commandLine, meterCpu, perRequest, screenBodies, screenLoad, startPrivateNats, stopChildren } from './lib/screen-load.mjs';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBenchPostgres, ensureRedis } from '../infra/scripts/infrastructure.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { arg, flag } = commandLine();
const duration = Number(arg('--duration', '20'));
const connections = Number(arg('--connections', '8'));
const listsDir = resolve(root, arg('--lists', '../shared/data/lists'));
const json = flag('--json');
const replicas = Number(arg('--replicas', '1'));
const withCeiling = !flag('--no-ceiling');
const TARGET = { rps: 1000, p99: 25, ratio: 0.3 };
// --runs 5: the issue's evidence (targets met in at least 4 of 5 runs), each with its own ceiling, on one stack.
const runs = Math.max(1, Number(arg('--runs', '1')));
// As in k8s/base/*/deployment.yaml: a larger young generation, fewer scavenges per request.
const SERVICE_NODE_OPTIONS = process.env.BENCH_NODE_OPTIONS ?? '--max-semi-space-size=32';

const { url: DATABASE_URL } = await ensureBenchPostgres();
const redis = await ensureRedis();
// A redis-server started here must not outlive the benchmark (stop() signals it at once).
process.once('exit', () => void redis.stop());
const REDIS_URL = redis.url;
const prefix = `bench${Math.random().toString(16).slice(2, 8)}`;
const children = [];
const named = {};
const log = (...m) => !json && console.error('[bench:gateway]', ...m);

function run(script, env, { wait = false, nodeArgs = [], name } = {}) {
  const child = spawn(process.execPath, [...nodeArgs, script], {
    env: { ...process.env, ...env, NODE_OPTIONS: SERVICE_NODE_OPTIONS },
    stdio: ['ignore', 'ignore', wait ? 'pipe' : 'inherit'],
  });
  if (wait) {
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    return new Promise((res, rej) =>
      child.once('exit', (code) => (code === 0 ? res() : rej(new Error(`${script} failed: ${err}`)))),
    );
  }
  children.push(child);
  if (name) named[name] = child;
  return child;
}

/** autocannon over every gateway at once (connections split evenly), summed as one result. */
async function loadAll(urls, optsFor) {
  const results = await Promise.all(urls.map((u) => autocannon(optsFor(u))));
  if (results.length === 1) return results[0];
  const sum = (f) => results.reduce((n, r) => n + f(r), 0);
  const worst = (f) => Math.max(...results.map(f));
  return {
    requests: { total: sum((r) => r.requests.total), average: sum((r) => r.requests.average) },
    throughput: { total: sum((r) => r.throughput.total) },
    // Percentiles of the union are not the sum of parts: report the worse replica's.
    latency: { p50: worst((r) => r.latency.p50), p99: worst((r) => r.latency.p99), max: worst((r) => r.latency.max) },
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    statusCodeStats: results.reduce((all, r) => {
      for (const [code, { count }] of Object.entries(r.statusCodeStats))
        all[code] = { count: (all[code]?.count ?? 0) + count };
      return all;
    }, {}),
    '2xx': sum((r) => r['2xx']),
  };
}

function report(summary, ceiling) {
  return (
    `POST /api/v1/screen: ${summary.rps} req/s, p50 ${summary.p50ms} ms, p99 ${summary.p99ms} ms, max ${summary.maxMs} ms; ` +
    `${summary.requests} requests, ${summary.non2xx} non-2xx, ${summary.errors} errors, ${connections} connections, ${summary.bytesPerResponse} bytes per response\n` +
    (ceiling
      ? `  ceiling (edge → NATS → responder, no work): ${ceiling.requestsPerSecond} req/s, p99 ${ceiling.p99Ms} ms, ` +
        `CPU per request ${ceiling.cpuMsTotal} ms (${Object.entries(ceiling.cpuMsPerRequest)
          .map(([name, ms]) => `${name} ${ms}`)
          .join(', ')})\n  ratio = real / ceiling = ${summary.ratio}\n`
      : '') +
    `  target ≥ ${TARGET.rps} req/s: ${summary.meetsThroughput ? 'met' : 'NOT met'}; target p99 ≤ ${TARGET.p99} ms: ${summary.meetsP99 ? 'met' : 'NOT met'}` +
    (ceiling ? `; target ratio ≥ ${TARGET.ratio}: ${summary.ratio >= TARGET.ratio ? 'met' : 'NOT met'}` : '') +
    `\n  host load average ${summary.loadAverage.join(' ')} on ${summary.cpus} cores, Node ${summary.node} (2 cores shared: compare CPU per request, not only req/s)`
  );
}

async function request(nc, subject, data, timeout = 10_000) {
  const reply = await nc.request(subject, JSON.stringify({ id: String(Math.random()), data }), { timeout });
  const body = reply.json();
  if (body.err) throw new Error(`${subject}: ${JSON.stringify(body.err)}`);
  return body.response;
}

async function until(what, fn, timeoutMs) {
  const started = Date.now();
  for (;;) {
    try {
      const value = await fn();
      if (value) return value;
    } catch {
      // not yet
    }
    if (Date.now() - started > timeoutMs) throw new Error(`${what} not ready after ${timeoutMs / 1000}s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function main() {
  for (const svc of ['auth', 'screening', 'gateway']) {
    if (!existsSync(join(root, 'services', svc, 'dist', 'src', 'main.js')))
      throw new Error(`build ${svc} first (npx nx run @vigil/${svc}:build)`);
  }
  if (!existsSync(listsDir)) throw new Error(`no lists at ${listsDir}`);
  const nats = await startPrivateNats();
  const NATS_URL = nats.url;
  const gatewayPorts = [];
  for (let i = 0; i < replicas; i++) gatewayPorts.push(await freePort());
  const gatewayPort = gatewayPorts[0];
  // The deployed log level (k8s/base: info), so the bench pays for the log lines production writes;
  // BENCH_LOG_LEVEL=warn shows what they cost.
  const base = { DATABASE_URL, NATS_URL, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info' };
  try {
    const env = {
      auth: { ...base, DB_SCHEMA: `${prefix}_auth`, ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' },
      screening: { ...base, DB_SCHEMA: `${prefix}_screening`, LISTS_DIR: listsDir, LISTS_SCHEDULER: 'true' },
      gateway: {
        ...base,
        DB_SCHEMA: `${prefix}_gateway`,
        PORT: String(gatewayPort),
        HOST: '127.0.0.1',
        REDIS_URL,
        RATE_LIMIT_SCALE: '1000',
        BULK_WORKER: 'false',
      },
    };
    log(`migrating and starting auth, screening (lists: ${listsDir}) and the gateway`);
    await Promise.all(
      ['auth', 'screening', 'gateway'].map((svc) =>
        run(join(root, 'services', svc, 'dist', 'src', 'migrate.js'), env[svc], { wait: true }),
      ),
    );
    // --profile writes V8 CPU profiles of the gateway and screening to $TMPDIR/vigil-bench-profiles when they exit.
    const profile = flag('--profile') ? ['--cpu-prof', '--cpu-prof-dir', join(tmpdir(), 'vigil-bench-profiles')] : [];
    const main = (svc) => join(root, 'services', svc, 'dist', 'src', 'main.js');
    run(main('auth'), env.auth, { name: 'auth' });
    for (let i = 0; i < replicas; i++) {
      // Only the first screening replica fetches lists; the others follow lists.v1.updated.
      run(
        main('screening'),
        { ...env.screening, ...(i > 0 ? { LISTS_SCHEDULER: 'false' } : {}) },
        {
          nodeArgs: profile,
          name: i === 0 ? 'screening' : `screening-${i + 1}`,
        },
      );
      run(
        main('gateway'),
        { ...env.gateway, PORT: String(gatewayPorts[i]) },
        {
          nodeArgs: profile,
          name: i === 0 ? 'gateway' : `gateway-${i + 1}`,
        },
      );
    }

    await new Promise((r) => setTimeout(r, 300));
    const nc = await until('nats', () => connect({ servers: NATS_URL }), 10_000);
    await until('auth', () => request(nc, 'health.v1.auth', {}, 1_000), 60_000);
    const provisioned = await until(
      'client',
      () =>
        request(nc, 'clients.v1.provision', {
          clientName: 'Bench Bank',
          contactEmail: 'bench@example.com',
          tier: 'large',
        }),
      30_000,
    );
    await request(nc, 'clients.v1.update-subscription', { clientId: provisioned.client.id, quotaMonth: 1_000_000_000 });
    const key = provisioned.api_key;
    const url = `http://127.0.0.1:${gatewayPort}`;
    const loaded = Date.now();
    const lists = await until(
      'lists loaded',
      async () => {
        const res = await fetch(`${url}/api/v1/lists`, { headers: { 'x-api-key': key } });
        if (!res.ok) return null;
        const body = await res.json();
        const ready = body.lists.filter((l) => l.entityCount > 0);
        return ready.length > 0 && ready.length === body.lists.filter((l) => l.status !== 'inactive').length
          ? body.lists
          : null;
      },
      300_000,
    );
    // Ingested is not yet indexed: wait until screening answers.
    await until(
      'index',
      () =>
        request(
          nc,
          'screening.v1.screen',
          { clientId: provisioned.client.id, tier: 'large', feeds: [...FEEDS], entity: { name: 'Vladimir Putin' } },
          30_000,
        ),
      300_000,
    );
    const entities = lists.reduce((n, l) => n + l.entityCount, 0);
    log(
      `${lists.length} lists, ${entities} entities loaded (${Math.round((Date.now() - loaded) / 1000)} s after boot)`,
    );

    const queries = screenBodies(root);
    const urls = gatewayPorts.map((p) => `http://127.0.0.1:${p}`);
    const opts = (d) => (u) =>
      screenLoad({
        url: `${u}/api/v1/screen`,
        key,
        bodies: queries,
        connections: Math.max(1, Math.round(connections / urls.length)),
        duration: d,
      });
    for (const u of urls.slice(1)) await until('replica', async () => (await fetch(`${u}/api/v1/plans`)).ok, 30_000);
    // Where the time goes: screening alone over NATS, and the gateway alone (status: guard, limiter, quota read).
    const direct = [];
    let directBytes = 0;
    for (const body of queries.slice(0, 200)) {
      const t = performance.now();
      const answer = await request(
        nc,
        'screening.v1.screen',
        {
          clientId: provisioned.client.id,
          tier: 'large',
          feeds: [...FEEDS],
          entity: JSON.parse(body),
          explain: 'flagged',
        },
        30_000,
      );
      direct.push(performance.now() - t);
      directBytes += Buffer.byteLength(JSON.stringify(answer));
    }
    // The ceiling answers replies of this size: the real answer's, on average.
    const replyBytes = Math.round(directBytes / direct.length);
    direct.sort((a, b) => a - b);
    log(
      `screening.v1.screen over NATS, one at a time: p50 ${direct[100].toFixed(1)} ms, p99 ${direct[197].toFixed(1)} ms`,
    );
    const bare = await autocannon({ url: `${url}/api/v1/plans`, connections, duration: 5 });
    log(
      `GET /api/v1/plans (HTTP stack only): ${Math.round(bare.requests.average)} req/s, p50 ${bare.latency.p50} ms, p99 ${bare.latency.p99} ms`,
    );
    const edge = await autocannon({
      url: `${url}/api/v1/status`,
      connections,
      duration: 5,
      headers: { 'x-api-key': key },
    });
    log(
      `GET /api/v1/status (gateway only): ${Math.round(edge.requests.average)} req/s, p50 ${edge.latency.p50} ms, p99 ${edge.latency.p99} ms, non-2xx ${edge.non2xx}`,
    );
    log(
      `warming up for 5 s, then ${duration} s with ${connections} connections over ${queries.length} queries (load average ${loadAverageText()})`,
    );
    const db = new pg.Client({ connectionString: DATABASE_URL });
    await db.connect();
    const logged = async () =>
      (
        await db.query(`SELECT count(*)::int AS n FROM "${prefix}_screening".screening_logs WHERE client_id = $1`, [
          provisioned.client.id,
        ])
      ).rows[0].n;
    const logsBefore = await logged();
    const processes = Object.fromEntries(Object.entries(named).map(([name, child]) => [name, child.pid]));
    let answered = 0;
    const measured = [];
    for (let run = 1; run <= runs; run++) {
      if (runs > 1) log(`run ${run} of ${runs}`);
      const warm = await loadAll(urls, opts(5));
      const { result, used } = await meterCpu({ ...processes, 'nats-server': nats.pid }, db, `vigil-${prefix}%`, () =>
        loadAll(urls, opts(duration)),
      );
      answered += warm['2xx'] + result['2xx'];
      const { each: cpuPerRequest, total: cpuTotal } = perRequest(used, result.requests.total);
      log(
        `CPU per request (ms): ${Object.entries(cpuPerRequest)
          .map(([name, ms]) => `${name} ${ms}`)
          .join(
            ', ',
          )}; total ${cpuTotal.toFixed(2)} ms = at most ${Math.round((cpus().length * 1000) / cpuTotal)} req/s on ${cpus().length} cores`,
      );
      let ceiling;
      if (withCeiling) {
        log(`ceiling: edge → NATS → responder, ${replyBytes}-byte replies, ${connections} connections, ${duration} s`);
        ceiling = await runCeiling({ bodies: queries, connections, duration, replyBytes });
      }
      const summary = summarise(result, cpuPerRequest, cpuTotal, ceiling);
      measured.push(summary);
      if (!json) console.log(report(summary, ceiling));
    }
    await nc.close();
    let replicaCheck;
    if (replicas > 1) {
      // Every gateway gives its leases back on SIGTERM; then the counter must equal the answers.
      await stopChildren(
        Object.entries(named)
          .filter(([name]) => name.startsWith('gateway'))
          .map(([, c]) => c),
      );
      const counted = (
        await db.query(
          `SELECT coalesce(sum(used), 0)::int AS n FROM "${prefix}_gateway".quota_usage WHERE client_id = $1`,
          [provisioned.client.id],
        )
      ).rows[0].n;
      const logs = (await logged()) - logsBefore;
      // autocannon stops with up to `connections` requests in flight per load (warm-up and measured,
      // each run): the gateways answer them, autocannon does not count them.
      const inFlight = 2 * runs * connections;
      replicaCheck = {
        answered,
        quotaCounted: counted,
        screeningLogs: logs,
        ok: counted === logs && logs >= answered && logs - answered <= inFlight,
      };
      log(
        `replicas: ${answered} screens answered (+ ≤ ${inFlight} in flight at autocannon's stops), quota counted ${counted}, ` +
          `screening logs ${logs}: ${replicaCheck.ok ? 'consistent' : 'INCONSISTENT'}`,
      );
    }
    await db.end();
    const met = measured.filter((m) => m.meetsThroughput && m.meetsP99 && (m.ratio ?? 0) >= TARGET.ratio).length;
    if (runs > 1 && !json) {
      console.log(`\n${runs} runs (${met} met all three targets):`);
      for (const [i, m] of measured.entries())
        console.log(
          `  ${i + 1}. ${m.rps} req/s, p99 ${m.p99ms} ms, ratio ${m.ratio ?? '-'}, CPU ms/request ${m.cpuMsPerRequestTotal} ` +
            `(${Object.entries(m.cpuMsPerRequest).map(([name, ms]) => `${name} ${ms}`).join(', ')}), load ${m.loadAverage[0]}`,
        );
    }
    if (json) {
      // One object: the first run's figures at the top level (as with one run), every run in `runs`.
      console.log(JSON.stringify({ ...measured[0], ...(replicaCheck ? { replicaCheck } : {}), runs: measured, runsMeetingTargets: met }));
    }
    if (replicaCheck && !replicaCheck.ok) process.exitCode = 1;

    function summarise(result, cpuPerRequest, cpuTotal, ceiling) {
      const rps = Math.round(result.requests.average);
      return {
        requestsPerSecond: rps,
        p99Ms: result.latency.p99,
        ceilingRequestsPerSecond: ceiling?.requestsPerSecond ?? null,
        ceilingP99Ms: ceiling?.p99Ms ?? null,
        ratio: ceiling ? Math.round((rps / ceiling.requestsPerSecond) * 1000) / 1000 : null,
        replicas,
        endpoint: 'POST /api/v1/screen',
        cpus: cpus().length,
        node: process.version,
        connections,
        durationS: duration,
        lists: lists.length,
        entities,
        requests: result.requests.total,
        rps,
        bytesPerResponse: Math.round(result.throughput.total / Math.max(1, result.requests.total)),
        p50ms: result.latency.p50,
        p99ms: result.latency.p99,
        maxMs: result.latency.max,
        non2xx: result.non2xx,
        statusCodes: result.statusCodeStats,
        screeningDirectP50ms: Math.round(direct[100] * 10) / 10,
        gatewayOnlyRps: Math.round(edge.requests.average),
        gatewayOnlyP99ms: edge.latency.p99,
        errors: result.errors,
        timeouts: result.timeouts,
        target: TARGET,
        meetsThroughput: result.requests.average >= TARGET.rps && result.non2xx === 0,
        meetsP99: result.latency.p99 <= TARGET.p99,
        cpuMsPerRequest: cpuPerRequest,
        cpuMsPerRequestTotal: Math.round(cpuTotal * 1000) / 1000,
        ceilingCpuMsPerRequest: ceiling?.cpuMsPerRequest ?? null,
        ceilingCpuMsPerRequestTotal: ceiling?.cpuMsTotal ?? null,
        replyBytes,
        ceilingBytesPerResponse: ceiling?.bytesPerResponse ?? null,
        loadAverage: loadAverage(),
      };
    }
  } finally {
    await stopChildren(children);
    nats.stop();
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    for (const svc of ['auth', 'screening', 'gateway'])
      await client.query(`DROP SCHEMA IF EXISTS "${prefix}_${svc}" CASCADE`);
    await client.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
