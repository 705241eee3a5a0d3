#!/usr/bin/env node
// npm run bench:floor — what the fixed layout itself costs on this machine, with no framework.
//
// POST /api/v1/screen crosses: HTTP → Redis (failed-auth check and rate limit, pipelined) →
// Postgres (quota lease: a block per statement, counted in memory) → NATS request → screening service (match, then the screening log in
// Postgres) → NATS reply → HTTP. This script builds only that skeleton, in two processes like the
// real ones: an edge on bare node:http that calls the gateway's own rate limiter and quota
// repository (from its build) and the NATS client, and a service that spins for --work-us
// microseconds of CPU in place of matching, writes one log row and answers with a ~10 KB JSON
// body shaped like a real screening answer. No Nest pipeline, no Express, no validation, no
// explanations: whatever it cannot reach, the real gateway cannot reach either.
//
// It answers one question for bench:gateway's targets (≥ 1,000 req/s with p99 ≤ 25 ms at 8
// connections): are they a matter of our code, or of the hops the layout fixes on this host?
//
//   node bench/bench-layout-floor.mjs [--duration 10] [--connections 8] [--work-us 300] [--no-quota] [--json]
//
// --work-us 300 is about the matching core's CPU per query (bench:matching: p50 ≈ 0.25 ms);
// --work-us 0 is the layout alone. --no-quota drops the Postgres quota hop, to show what it costs.
// Needs the gateway built (npx nx run @vigil/gateway:build), Postgres (DATABASE_URL), Redis
// (REDIS_URL) and nats-server on the PATH, like bench:gateway.
import autocannon from 'autocannon';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { createDatabase, natsConnectionOptions } from '@vigil/platform';
import { loadAverageText } from './lib/host.mjs';
import { commandLine, meterCpu, perRequest, screenBodies, screenLoad, startPrivateNats } from './lib/screen-load.mjs';
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureDatabase } from '../infra/scripts/infrastructure.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { arg, flag } = commandLine();
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vigil_test';
await ensureDatabase(DATABASE_URL);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SUBJECT = 'floor.v1.screen';
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

/** The screening-log pool as the screening service opens it: small, schema-scoped, asynchronous commit. */
const logPool = (schema) =>
  new pg.Pool({
    connectionString: DATABASE_URL,
    max: 4,
    application_name: `vigil-${schema}-logs`,
    options: `-c search_path="${schema}" -c synchronous_commit=off`,
  });

/** A screening answer of the real one's shape and size: ten results, the top one explained in text. */
function cannedAnswer() {
  const result = (i) => ({
    id: `ofac-sdn:${36000 + i}`,
    name: `SURNAME${i}, Firstname Patronymic Secondname`,
    matchedName: `SURNAME${i}, Firstname Patronymic`,
    matchedNameStrength: 'strong',
    matchedOn: 'name',
    score: 0.3 - i / 100,
    status: 'clear',
    label: 'Low Confidence Match',
    entityType: 'individual',
    source: 'ofac-sdn',
    sourceId: String(36000 + i),
    sourceDataset: 'ofac_sdn',
    feed: 'ofac',
    programs: ['RUSSIA-EO14024', 'UKRAINE-EO13662'],
    explanation: {
      text:
        i === 0
          ? 'BLOCKED 99.3%  ofac-sdn:36000  SURNAME0, Firstname Patronymic (individual)\n' +
            '    firstname          → firstname              exact          score 1.00  weight 0.69  (same word)\n' +
            '    surname            → surname                exact          score 1.00  weight 1.10  (same word)'
          : '',
      nameScore: 0.41,
      queryScheme: 'latin',
      listScheme: 'latin',
      tokens: [
        { query: ['firstname'], list: ['maria'], method: 'contradicted', score: 0, weight: 1.4188 },
        { query: ['patronymic'], list: ['patronymic'], method: 'exact', score: 1, weight: 0.8127 },
        { query: ['surname'], list: [`surname${i}`], method: 'phonetic', score: 0.945, weight: 1.1027 },
      ],
      unmatchedList: [],
      qualifiers: [
        { qualifier: 'evidence', effect: -0.0726, detail: 'few or common tokens matched: little evidence of identity' },
      ],
    },
  });
  return {
    screeningId: '00000000-0000-4000-8000-000000000000',
    searchedName: '',
    searchedEmail: null,
    match: true,
    blocked: false,
    status: 'clear',
    topScore: 0.3,
    label: 'Low Confidence Match',
    results: Array.from({ length: 10 }, (_, i) => result(i)),
  };
}

/** The broker was just spawned: retry the first connection for a few seconds. */
async function connectNats(name) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await connect(natsConnectionOptions(process.env.FLOOR_NATS_URL, name));
    } catch (error) {
      if (attempt >= 50) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function service() {
  const nc = await connectNats('floor-service');
  const logs = logPool(process.env.FLOOR_SCHEMA);
  const workNs = BigInt(Number(process.env.FLOOR_WORK_US) * 1000);
  const answer = JSON.stringify(cannedAnswer());
  const sub = nc.subscribe(SUBJECT, { queue: 'screening' });
  process.send('ready');
  for await (const msg of sub) {
    void (async () => {
      const { id, data } = msg.json();
      const started = process.hrtime.bigint();
      while (process.hrtime.bigint() - started < workNs); // the matching core's CPU, without its answer
      const body = JSON.parse(answer);
      body.searchedName = data.entity.name;
      await logs.query({
        name: 'floor-log',
        text: `INSERT INTO screening_log (client_id, searched_name, doc)
          SELECT x.client_id, x.searched_name, x.doc FROM json_to_recordset($1::json) AS x(client_id text, searched_name text, doc jsonb)`,
        values: [
          JSON.stringify([{ client_id: data.clientId, searched_name: data.entity.name, doc: { status: body.status } }]),
        ],
      });
      msg.respond(JSON.stringify({ response: body, isDisposed: true, id }));
    })().catch((error) => msg.respond(JSON.stringify({ err: { message: String(error) }, id: null })));
  }
}

async function edge() {
  const config = gatewayConfig(process.env.FLOOR_SCHEMA);
  const { RateLimits } = await gateway('rate-limits/rate-limits.service.js');
  const { QuotaLeasesRepository } = await gateway('quotas/quota-leases.repository.js');
  const { QuotaLeases } = await gateway('quotas/quota-leases.service.js');
  const limits = new RateLimits(config);
  const quotas = new QuotaLeases(new QuotaLeasesRepository(createDatabase({ databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA })), config);
  const period = { period: '2026-11-01T00:00:00.000Z', periodEnd: '2099-01-01T00:00:00.000Z', quota: 2_000_000_000 };
  const nc = await connectNats('floor-edge');
  const withQuota = process.env.FLOOR_QUOTA === 'true';
  let seq = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      try {
        const entity = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const key = req.headers['x-api-key'];
        // As the gateway's guard: the address's failed-auth check and the client's limit together.
        const [, limit] = await Promise.all([
          limits.exhausted(`failed-auth:${req.socket.remoteAddress}`, 300), // FAILED_AUTH_PER_MINUTE's default
          limits.consume(`client:${key}`, 1_000_000),
        ]);
        if (withQuota && (await quotas.take({ clientId: key, ...period }, 1)) === null)
          throw new Error('quota refused');
        const reply = await nc.request(
          SUBJECT,
          JSON.stringify({ pattern: SUBJECT, data: { clientId: key, entity }, id: String(++seq) }),
          { timeout: 10_000 },
        );
        const { response, err } = reply.json();
        if (err) throw new Error(`service: ${err.message}`);
        res.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'x-request-id': String(seq),
          'RateLimit-Limit': String(limit.limit),
          'RateLimit-Remaining': String(limit.remaining),
          'RateLimit-Reset': String(limit.resetSeconds),
        });
        res.end(JSON.stringify(response));
      } catch (error) {
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
      client_id text NOT NULL, searched_name text NOT NULL, doc jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
  const nats = await startPrivateNats();
  const env = {
    ...process.env,
    FLOOR_NATS_URL: nats.url,
    FLOOR_SCHEMA: schema,
    FLOOR_WORK_US: String(workUs),
    FLOOR_QUOTA: String(withQuota),
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
    const opts = (d) =>
      screenLoad({
        url: `http://127.0.0.1:${port}/api/v1/screen`,
        key: client,
        bodies: screenBodies(root),
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
          `  load average ${summary.loadAverage}, Node ${summary.node}`,
      );
  } finally {
    await Promise.all(
      children.map((c) => new Promise((r) => (c.exitCode !== null ? r() : (c.once('exit', r), c.kill('SIGTERM'))))),
    );
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
