// `npm run bench:audit`: how many events a second the audit service stores (JetStream in,
// chained rows out, end to end through the built service), and how many rows a second
// `audit:verify` checks. Uses a private nats-server and a throwaway schema in the database
// `npm start` uses (DATABASE_URL when it answers). BENCH_EVENTS sets the count (default 20000).
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir, cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const AUDIT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = join(AUDIT_DIR, '..', '..');
const TOTAL = Number(process.env.BENCH_EVENTS ?? 20_000);
const CLIENTS = 50;

const dist = (file) => join(AUDIT_DIR, 'dist', 'src', file);
if (!existsSync(dist('main.js'))) {
  const built = spawnSync('npx', ['nx', 'run', '@vigil/audit:build', '--outputStyle=static'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(1);
}
const { connect } = await import('@nats-io/transport-node');
const { jetstream, jetstreamManager } = await import('@nats-io/jetstream');
const { default: pg } = await import('pg');
const { ensurePostgres } = await import(join(ROOT, 'infra', 'scripts', 'infrastructure.mjs'));

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
const run = (script, env) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => resolve({ code, out }));
  });

const postgres = await ensurePostgres();
const schema = `bench_audit_${randomUUID().slice(0, 8)}`;
const natsDir = mkdtempSync(join(tmpdir(), 'vigil-bench-audit-'));
const natsPort = await freePort();
const { binaryOf } = await import(join(ROOT, 'infra', 'scripts', 'machine.mjs'));
const nats = spawn(binaryOf('nats-server') ?? 'nats-server', ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', natsDir], {
  stdio: 'ignore',
});
const env = {
  DATABASE_URL: postgres.url,
  NATS_URL: `nats://127.0.0.1:${natsPort}`,
  DB_SCHEMA: schema,
  LOG_LEVEL: 'warn',
  AUDIT_RETENTION_EVERY_HOURS: '0',
};
const db = new pg.Client({ connectionString: postgres.url });
let audit;
try {
  await db.connect();
  const migrated = await run(dist('migrate.js'), env);
  if (migrated.code !== 0) throw new Error(migrated.out);
  let nc;
  for (let i = 0; !nc; i++)
    nc = await connect({ servers: env.NATS_URL }).catch((e) =>
      i > 50 ? Promise.reject(e) : new Promise((r) => setTimeout(r, 100)),
    );
  const jsm = await jetstreamManager(nc);
  await jsm.streams.add({ name: 'SECURITY', subjects: ['security.v1.event'] });
  await jsm.streams.add({ name: 'SCREENINGS', subjects: ['screening.v1.screened', 'screening.v1.review-decided'] });
  await jsm.streams.add({ name: 'ADMIN_ACTIONS', subjects: ['admin.v1.action'] });

  // Published before the service starts, so the figure is the service's own pace, not the publisher's.
  const js = jetstream(nc);
  const clients = Array.from({ length: CLIENTS }, () => randomUUID());
  const now = new Date().toISOString();
  let pending = [];
  for (let i = 0; i < TOTAL; i++) {
    const clientId = clients[i % CLIENTS];
    let subject;
    let event;
    if (i % 20 < 12) {
      subject = 'security.v1.event';
      event = {
        id: randomUUID(),
        event: i % 3 ? 'CLIENT_ACCESS' : 'FAILED_AUTH',
        timestamp: now,
        details: {
          ip: '10.1.2.3',
          endpoint: '/api/v1/screen',
          method: 'POST',
          adminEmail: null,
          clientName: 'Bench Bank',
          clientId,
          userId: null,
          requestId: null,
          reason: null,
        },
      };
    } else if (i % 20 < 19) {
      subject = 'screening.v1.screened';
      const id = randomUUID();
      event = {
        eventId: id,
        screeningId: id,
        kind: 'single',
        clientId,
        tier: 'large',
        requestId: null,
        searchedName: `Name ${i}`,
        searchedEmail: null,
        matchFound: false,
        status: 'clear',
        score: 0.12,
        topEntityId: null,
        matchedName: null,
        sourceList: null,
        isAlert: false,
        listVersions: [
          { source: 'ofac_sdn', versionId: 7 },
          { source: 'un_sc', versionId: 3 },
        ],
        createdAt: now,
      };
    } else {
      subject = 'admin.v1.action';
      event = {
        id: randomUUID(),
        action: 'thresholds.changed',
        actorId: randomUUID(),
        actorEmail: 'admin@vigil.dev',
        clientId,
        clientName: 'Bench Bank',
        ip: '10.0.0.1',
        endpoint: '/api/client/clients/x/thresholds',
        requestId: null,
        details: { threshold_config: { HIGH_SCORE: 0.9 } },
        occurredAt: now,
      };
    }
    pending.push(js.publish(subject, JSON.stringify(event), { msgID: event.id ?? event.eventId }));
    if (pending.length === 500) {
      await Promise.all(pending);
      pending = [];
    }
  }
  await Promise.all(pending);

  const count = async () =>
    (
      await db.query(
        `SELECT (SELECT count(*) FROM "${schema}".security_events) + (SELECT count(*) FROM "${schema}".screening_events)
              + (SELECT count(*) FROM "${schema}".admin_actions) AS n`,
      )
    ).rows[0].n;
  const started = performance.now();
  audit = spawn(process.execPath, [dist('main.js')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let stored = 0;
  while (stored < TOTAL) {
    await new Promise((r) => setTimeout(r, 100));
    stored = Number(await count());
    if (performance.now() - started > 600_000) throw new Error(`only ${stored} of ${TOTAL} stored in 10 minutes`);
  }
  const seconds = (performance.now() - started) / 1000;
  await nc.close();

  const verified = await run(dist('verify.js'), env);
  const rate = /\((\d+) rows\/s\)/.exec(verified.out)?.[1];
  if (verified.code !== 0 || !rate) throw new Error(`verify failed: ${verified.out}`);
  const load = loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
  process.stdout.write(
    `bench:audit  ${TOTAL} events (60% security, 35% screenings over ${CLIENTS} client chains, 5% admin actions)\n` +
      `  stored:   ${Math.round(TOTAL / seconds)} events/s  (${seconds.toFixed(2)} s from service start, boot included)\n` +
      `  verified: ${rate} rows/s  (audit:verify over the ${TOTAL} rows)\n` +
      `  machine:  ${cpus().length} cores, load average ${load}\n`,
  );
} finally {
  if (audit && audit.exitCode === null) {
    const exited = new Promise((r) => audit.once('exit', r));
    audit.kill('SIGTERM');
    await exited;
  }
  nats.kill('SIGTERM');
  await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
  await db.end().catch(() => undefined);
  await postgres.stop();
  rmSync(natsDir, { recursive: true, force: true });
}
