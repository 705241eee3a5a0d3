#!/usr/bin/env node
// npm run bench:floor — the work POST /api/v1/screen cannot do without, on this machine, with no framework.
//
// The path as it is built today: HTTP → the caller's rate limit (a chunk of the window's budget
// from Redis, spent in memory) → the quota (a lease of a block from Postgres, counted in memory)
// → NATS request → screening (match, then its log row, group-committed and durable before the
// answer) → NATS reply → the answer's bytes passed through to HTTP. This script builds only that
// skeleton, in two processes like the real ones: an edge on bare node:http that calls the
// gateway's own rate limiter and quota leases (from its build) and the NATS client, and a service
// that spins for --work-us microseconds of CPU in place of matching, commits the log rows of the
// screens waiting (one write in flight) and answers a reply of --reply-bytes. No Nest, no Express,
// no validation, no key lookup, no tracing or metrics, no explanations: whatever it cannot
// reach, the real gateway cannot reach either.
//
// In the same invocation it runs the ceiling (bench/lib/ceiling.mjs: the same bodies, connections
// and reply size, no work at all) and prints ratio = floor / ceiling: the share of the ceiling
// that the work every screen must do leaves, before any of the product's own duties.
//
//   node bench/bench-layout-floor.mjs [--duration 10] [--connections 8] [--work-us 300]
//                                     [--reply-bytes 4100] [--no-quota] [--no-ceiling] [--json]
//
// --work-us 300 is about the matching core's CPU per query on the shared lists (bench:matching);
// --work-us 0 is the layout alone. --reply-bytes defaults to the default answer's size as
// bench:gateway measures it. --no-quota drops the quota lease, to show what it costs.
// Needs the gateway built (npx nx run @vigil/gateway:build), Postgres (DATABASE_URL), Redis
// (REDIS_URL) and nats-server on the PATH, like bench:gateway.
import autocannon from 'autocannon';
import pg from 'pg';
import { createDatabase } from '@vigil/platform';
import { connectRetrying, fixedReply, responseOf, runCeiling } from './lib/ceiling.mjs';
import { loadAverageText } from './lib/host.mjs';
import { commandLine, meterCpu, perRequest, screenBodies, screenLoad, startPrivateNats, stopChildren } from './lib/screen-load.mjs';
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBenchPostgres, ensureRedis } from '../infra/scripts/infrastructure.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { arg, flag } = commandLine();
const { url: DATABASE_URL } = await ensureBenchPostgres();
const redis = await ensureRedis();
// A redis-server started here must not outlive the benchmark (stop() signals it at once).
process.once('exit', () => void redis.stop());
const REDIS_URL = redis.url;
const SUBJECT = 'floor.v1.screen';
/** The default answer's size (explain=flagged) on the development queries, as bench:gateway printed it. */
const REPLY_BYTES = 4100;
const GATEWAY_DIST = join(root, 'services', 'gateway', 'dist', 'src');
/** A module of the built gateway: the edge runs its rate limiter and quota repository, not copies of them. */
const gateway = (path) => import(pathToFileURL(join(GATEWAY_DIST, path)).href);
/** What those gateway classes read of the gateway's config. */
const gatewayConfig = (schema) => ({
  DATABASE_URL,
  DB_SCHEMA: schema,
  REDIS_URL,
  RATE_LIMIT_SCALE: 1,
  QUOTA_LEASE_TTL_SECONDS: 30,
  QUOTA_LEASE_RENEW_MS: 5_000,
  QUOTA_LEASE_IDLE_MS: 60_000,
});

/**
 * The screening-log pool: small and schema-scoped like the screening service's, with synchronous
 * commit as it runs by default (SCREENING_LOG_SYNCHRONOUS_COMMIT): the row is durable before the answer.
 */
const logPool = (schema) =>
  new pg.Pool({
    connectionString: DATABASE_URL,
    max: 2,
    application_name: `vigil-${schema}-logs`,
    options: `-c search_path="${schema}"`,
  });

/**
 * Group commit, as screening's log writer does it: one write in flight; the screens that arrive
 * meanwhile go together in the next one, and each is answered once its row is committed.
 */
function groupCommit(pool) {
  let queued = [];
  let writing = false;
  const write = async () => {
    writing = true;
    while (queued.length > 0) {
      const batch = queued;
      queued = [];
      try {
        await pool.query({
          name: 'floor-log',
          text: `INSERT INTO screening_log (client_id, searched_name, doc)
            SELECT x.client_id, x.searched_name, x.doc FROM json_to_recordset($1::json) AS x(client_id text, searched_name text, doc json)`,
          values: [JSON.stringify(batch.map((e) => e.row))],
        });
        for (const e of batch) e.done();
      } catch (error) {
        for (const e of batch) e.fail(error);
      }
    }
    writing = false;
  };
  return (row) =>
    new Promise((done, fail) => {
      queued.push({ row, done, fail });
      if (!writing) void write();
    });
}

async function service() {
  const nc = await connectRetrying(process.env.FLOOR_NATS_URL);
  const record = groupCommit(logPool(process.env.FLOOR_SCHEMA));
  const workNs = BigInt(Number(process.env.FLOOR_WORK_US) * 1000);
  const replyBytes = Number(process.env.FLOOR_REPLY_BYTES);
  const sub = nc.subscribe(SUBJECT, { queue: 'screening' });
  process.send('ready');
  for await (const msg of sub) {
    void (async () => {
      const { id, data } = msg.json();
      const started = process.hrtime.bigint();
      while (process.hrtime.bigint() - started < workNs); // the matching core's CPU, without its answer
      await record({ client_id: data.clientId, searched_name: data.entity.name, doc: { status: 'clear' } });
      msg.respond(fixedReply(replyBytes, id));
    })().catch((error) => msg.respond(JSON.stringify({ err: { message: String(error) }, id: null })));
  }
}

async function edge() {
  const config = gatewayConfig(process.env.FLOOR_SCHEMA);
  const { RateLimits } = await gateway('rate-limits/rate-limits.service.js');
  const { QuotaLeasesRepository } = await gateway('quotas/quota-leases.repository.js');
  const { QuotaLeases } = await gateway('quotas/quota-leases.service.js');
  const limits = new RateLimits(config);
  // A lease's settlement counts its answers in screening's logs; the floor never settles one.
  const answers = { count: async () => [] };
  const quotas = new QuotaLeases(
    new QuotaLeasesRepository(createDatabase({ databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA })),
    config,
    answers,
  );
  const period = { period: '2026-11-01T00:00:00.000Z', periodEnd: '2099-01-01T00:00:00.000Z', quota: 2_000_000_000 };
  const nc = await connectRetrying(process.env.FLOOR_NATS_URL);
  const withQuota = process.env.FLOOR_QUOTA === 'true';
  let seq = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      let taken = null;
      try {
        const entity = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const key = req.headers['x-api-key'];
        // As the gateway's guard on valid credentials: the client's limit, spent from this replica's chunk.
        const limit = await limits.consume(`client:${key}`, 1_000_000);
        if (withQuota && (taken = await quotas.take({ clientId: key, ...period }, 1)) === null)
          throw new Error('quota refused');
        const id = String(++seq);
        const reply = await nc.request(
          SUBJECT,
          JSON.stringify({ pattern: SUBJECT, data: { clientId: key, entity, quotaLease: taken?.ticket.quotaLease }, id }),
          { timeout: 10_000 },
        );
        if (taken) quotas.end(taken.ticket, 'answered');
        res.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'x-request-id': id,
          'RateLimit-Limit': String(limit.limit),
          'RateLimit-Remaining': String(limit.remaining),
          'RateLimit-Reset': String(limit.resetSeconds),
        });
        res.end(responseOf(reply.data, id));
      } catch (error) {
        if (taken) quotas.end(taken.ticket, 'unknown');
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      }
    });
  });
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
}

async function main() {
  const duration = Number(arg('--duration', '10'));
  const connections = Number(arg('--connections', '8'));
  const workUs = Number(arg('--work-us', '300'));
  const withQuota = !flag('--no-quota');
  const replyBytes = Number(arg('--reply-bytes', String(REPLY_BYTES)));
  const withCeiling = !flag('--no-ceiling');
  const json = flag('--json');
  if (!existsSync(join(GATEWAY_DIST, 'main.js')))
    throw new Error('build the gateway first (npx nx run @vigil/gateway:build)');
  const schema = `benchfloor${Math.random().toString(16).slice(2, 8)}`;
  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  // The gateway's own tables (quota_usage above all), and a bare screening-log table.
  const { migrateWithLock } = await gateway('infra/database.js');
  await migrateWithLock(gatewayConfig(schema));
  await db.query(`CREATE TABLE "${schema}".screening_log (id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      client_id text NOT NULL, searched_name text NOT NULL, doc json NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
  const nats = await startPrivateNats();
  const env = {
    ...process.env,
    FLOOR_NATS_URL: nats.url,
    FLOOR_SCHEMA: schema,
    FLOOR_WORK_US: String(workUs),
    FLOOR_QUOTA: String(withQuota),
    FLOOR_REPLY_BYTES: String(replyBytes),
  };
  const self = fileURLToPath(import.meta.url);
  const children = [];
  try {
    const svc = fork(self, ['--role', 'service'], { env });
    children.push(svc);
    await new Promise((r, j) => (svc.once('message', r), svc.once('exit', () => j(new Error('service exited')))));
    const edgeProc = fork(self, ['--role', 'edge'], { env });
    children.push(edgeProc);
    const port = await new Promise(
      (r, j) => (edgeProc.once('message', r), edgeProc.once('exit', () => j(new Error('edge exited')))),
    );

    // The API key the edge passes to the limiter, and the client id the quota counts against.
    const client = randomUUID();
    const bodies = screenBodies(root);
    const opts = (d) =>
      screenLoad({
        url: `http://127.0.0.1:${port}/api/v1/screen`,
        key: client,
        bodies,
        connections,
        duration: d,
      });
    await autocannon(opts(3));
    const { result, used } = await meterCpu(
      { edge: edgeProc.pid, service: svc.pid, 'nats-server': nats.pid },
      db,
      `vigil-${schema}%`,
      () => autocannon(opts(duration)),
    );
    const n = Math.max(1, result.requests.total);
    const { each: cpu, total } = perRequest(used, n);
    // Stopped first: the ceiling must not share the cores with an idle-but-polling floor.
    await stopChildren(children);
    const ceiling = withCeiling ? await runCeiling({ bodies, connections, duration, replyBytes }) : null;
    const summary = {
      node: process.version,
      workUs,
      quotaHop: withQuota,
      connections,
      rps: Math.round(result.requests.average),
      p50ms: result.latency.p50,
      p99ms: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors,
      bytesPerResponse: Math.round(result.throughput.total / n),
      cpuMsPerRequest: cpu,
      cpuMsTotal: Math.round(total * 100) / 100,
      ...(ceiling
        ? {
            ceilingRequestsPerSecond: ceiling.requestsPerSecond,
            ceilingCpuMsPerRequest: ceiling.cpuMsPerRequest,
            ratio: Math.round((result.requests.average / ceiling.requestsPerSecond) * 1000) / 1000,
          }
        : {}),
      loadAverage: loadAverageText(),
    };
    if (json) console.log(JSON.stringify(summary));
    else
      console.log(
        `layout floor (--work-us ${workUs}${withQuota ? '' : ', no quota hop'}, ${connections} connections): ` +
          `${summary.rps} req/s, p50 ${summary.p50ms} ms, p99 ${summary.p99ms} ms, ${summary.non2xx} non-2xx, ${summary.errors} errors, ${summary.bytesPerResponse} bytes per response\n` +
          `  CPU per request (ms): ${Object.entries(cpu)
            .map(([name, ms]) => `${name} ${ms}`)
            .join(
              ', ',
            )}; total ${total.toFixed(2)} = at most ${Math.round((cpus().length * 1000) / total)} req/s on ${cpus().length} cores\n` +
          (ceiling
            ? `  ceiling (edge → NATS → responder, no work, ${replyBytes}-byte replies): ${ceiling.requestsPerSecond} req/s, CPU per request ${ceiling.cpuMsTotal} ms\n` +
              `  ratio = floor / ceiling = ${summary.ratio}\n`
            : '') +
          `  load average ${summary.loadAverage}, Node ${summary.node}`,
      );
  } finally {
    await stopChildren(children);
    nats.stop();
    await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db.end();
  }
}

const role = arg('--role', 'main');
(role === 'service' ? service() : role === 'edge' ? edge() : main()).catch((error) => {
  console.error(error);
  process.exitCode = 1;
  if (role !== 'main') process.exit(1);
});
