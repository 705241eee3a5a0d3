// npm run bench:monitoring — two figures for ongoing monitoring:
//   1. re-screen time of a 100,000-name book against the OFAC SDN update of 2024-05-03: screening
//      serves the 2023-12-28 release, the book is written to monitoring's tables, the update is
//      ingested as a new version, and the time from the ingestion's start until monitoring has
//      recorded the version as re-screened is printed, with how many monitored names the lookup
//      made candidates (the target is ≤ 60 s, the lookup touching only candidates);
//   2. webhook deliveries per second: BENCH_DELIVERIES queued deliveries to a local receiver that
//      answers 200, signed and sent by one monitoring replica.
//
//   BENCH_BOOK          monitored names (default 100000), over BENCH_CLIENTS clients (default 100)
//   BENCH_DELIVERIES    webhook deliveries (default 3000)
//   DATABASE_URL        Postgres (default postgres://postgres@127.0.0.1:5432/vigil_test); throwaway schemas
// A private nats-server is started (the binary must be on the PATH). Build first: npm run build.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAverageText } from '../../../bench/lib/host.mjs';
import { ensureBenchPostgres } from '../../../infra/scripts/infrastructure.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const SERVICES = resolve(here, '..', '..');
const ROOT = resolve(SERVICES, '..');
const SHARED = join(ROOT, '..', 'shared', 'data');
const OFAC_2023 = join(SHARED, 'lists', 'ofac_sdn', 'sdn.csv');
const OFAC_2024 = join(SHARED, 'list-updates', 'ofac_sdn_2024-05-03', 'sdn.csv');
const BOOK = Number(process.env.BENCH_BOOK ?? 100_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100);
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 3000);
const { url: DATABASE_URL } = await ensureBenchPostgres();
const log = (m) => process.stdout.write(`[bench] ${m}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

for (const service of ['screening', 'monitoring']) {
  if (!existsSync(join(SERVICES, service, 'dist', 'src', 'main.js'))) {
    process.stderr.write(`[bench] build first (npm run build): services/${service}/dist is missing\n`);
    process.exit(1);
  }
}

const { connect } = await import('@nats-io/transport-node');
const { default: pg } = await import('pg');
const { freePort, natsServerBinary } = await import('@vigil/platform/testing');
const { DEFAULT_THRESHOLDS, FEEDS, subjects } = await import('@vigil/proto');

// A synthetic customer book: given and family names from many naming traditions (so, like a real
// book, some share tokens with the delta's names), a middle initial to keep them distinct.
const GIVEN =
  `James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard Susan Joseph Jessica
 Thomas Sarah Charles Karen Mohammed Fatima Ahmed Aisha Ali Omar Hassan Layla Yusuf Zainab Juan Maria Jose Carmen Luis Ana Carlos
 Lucia Miguel Sofia Wei Li Ming Hui Jun Yan Hiroshi Yuki Kenji Aiko Olga Ivan Sergei Natalia Dmitri Elena Pierre Claire Hans
 Greta Giovanni Francesca Raj Priya Arjun Ananya Kwame Amara Chinedu Ngozi Erik Ingrid Mateus Beatriz Reza Leila Mehmet Ayse
 Ekrem Nikolai Aleksei Timur Diego Erick Adam Damion`
    .split(/\s+/)
    .filter(Boolean);
const FAMILY =
  `Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson Anderson
 Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King
 Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Khan Rahman Hussain
 Haddad Nasser Farouk Yilmaz Kaya Demir Sahin Wang Zhang Liu Chen Yang Huang Tanaka Suzuki Sato Ivanov Petrov Smirnov Volkov
 Kuznetsov Dubois Moreau Muller Schmidt Rossi Russo Sharma Patel Singh Okafor Mensah Diallo Johansson Silva Santos Oliveira
 Hosseini Ahmadi Morales Ochoa Pearson Ryan`
    .split(/\s+/)
    .filter(Boolean);
const INITIALS = 'ABCDEFGHJKLMNPRSTW';

function bookName(i) {
  const g = GIVEN[i % GIVEN.length];
  const f = FAMILY[Math.floor(i / GIVEN.length) % FAMILY.length];
  const m = INITIALS[Math.floor(i / (GIVEN.length * FAMILY.length)) % INITIALS.length];
  const n = Math.floor(i / (GIVEN.length * FAMILY.length * INITIALS.length));
  return n === 0 ? `${g} ${m}. ${f}` : `${g} ${m}. ${f} ${INITIALS[n % INITIALS.length]}.`;
}

const work = await mkdtemp(join(tmpdir(), 'vigil-bench-monitoring-'));
const children = [];
const prefix = `bm${randomBytes(3).toString('hex')}`;
const schema = (s) => `${prefix}_${s}`;
const db = new pg.Client({ connectionString: DATABASE_URL });
await db.connect();
let nc;

function run(script, env, wait = false) {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  if (!wait) return child;
  return new Promise((res, rej) =>
    child.once('exit', (code) => (code === 0 ? res() : rej(new Error(`${script} exited ${code}`)))),
  );
}

async function request(subject, data, timeout = 120_000) {
  const reply = await nc.request(subject, JSON.stringify({ pattern: subject, data, id: '1' }), { timeout });
  const body = reply.json();
  if (body.err) throw new Error(`${subject}: ${JSON.stringify(body.err)}`);
  return body.response;
}

async function until(fn, what, timeoutMs = 600_000) {
  const started = Date.now();
  for (;;) {
    try {
      const value = await fn();
      if (value) return value;
    } catch {
      // not yet
    }
    if (Date.now() - started > timeoutMs) throw new Error(`${what} not reached in ${timeoutMs} ms`);
    await sleep(100);
  }
}

try {
  log(`host load before: ${loadAverageText()}`);
  const port = await freePort();
  const natsUrl = `nats://127.0.0.1:${port}`;
  children.push(
    spawn(
      natsServerBinary() ?? 'nats-server',
      ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', join(work, 'nats')],
      { stdio: 'ignore' },
    ),
  );
  const lists = join(work, 'lists');
  await mkdir(join(lists, 'ofac_sdn'), { recursive: true });
  await copyFile(OFAC_2023, join(lists, 'ofac_sdn', 'sdn.csv'));
  const base = { DATABASE_URL, NATS_URL: natsUrl, LOG_LEVEL: 'warn' };
  const screeningEnv = { ...base, DB_SCHEMA: schema('screening'), LISTS_DIR: lists };
  const monitoringEnv = {
    ...base,
    DB_SCHEMA: schema('monitoring'),
    MONITORING_SCHEDULER: 'false',
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    WEBHOOK_POLL_MS: '50',
  };
  await run(join(SERVICES, 'screening', 'dist', 'src', 'migrate.js'), screeningEnv, true);
  await run(join(SERVICES, 'monitoring', 'dist', 'src', 'migrate.js'), monitoringEnv, true);
  run(join(SERVICES, 'screening', 'dist', 'src', 'main.js'), screeningEnv);
  nc = await until(() => connect({ servers: natsUrl, timeout: 500 }), 'NATS');

  // The book, written straight to monitoring's tables as if checked yesterday (no scheduled check is due).
  const m = `"${schema('monitoring')}"`;
  const started = performance.now();
  for (let c = 0; c < CLIENTS; c++) {
    await db.query(
      `INSERT INTO ${m}.monitoring_clients (client_id, tier, feeds, thresholds) VALUES ($1, 'large', $2, $3)`,
      [`bench-${c}`, [...FEEDS], JSON.stringify(DEFAULT_THRESHOLDS)],
    );
  }
  for (let start = 0; start < BOOK; start += 10_000) {
    const names = Array.from({ length: Math.min(10_000, BOOK - start) }, (_, k) => bookName(start + k));
    await db.query(
      `INSERT INTO ${m}.monitored_entities (id, client_id, entity_name, check_frequency, last_checked, next_check_due, screening_status)
       SELECT gen_random_uuid(), 'bench-' || ((ord - 1) % $2), name, 'monthly', now(), now() + interval '30 days', 'clear'
         FROM unnest($1::text[]) WITH ORDINALITY AS t(name, ord)`,
      [names, CLIENTS],
    );
  }
  const [{ n: distinct }] = (
    await db.query(`SELECT count(DISTINCT entity_name)::int AS n FROM ${m}.monitored_entities`)
  ).rows;
  log(
    `book: ${BOOK} monitored names (${distinct} distinct) over ${CLIENTS} clients, written in ${Math.round(performance.now() - started)} ms`,
  );

  await until(async () => {
    const { lists: l } = await request(subjects.screening.lists, {}, 2_000);
    return l.some((s) => s.source === 'ofac-sdn' && s.status === 'active');
  }, 'screening serving OFAC SDN 2023-12-28');
  run(join(SERVICES, 'monitoring', 'dist', 'src', 'main.js'), monitoringEnv);
  await until(() => request(subjects.health('monitoring'), {}, 2_000), 'monitoring');
  await until(async () => {
    const status = await request(subjects.monitoring.serviceStatus, {
      caller: { clientId: 'bench-0', tier: 'large', feeds: [...FEEDS], thresholds: DEFAULT_THRESHOLDS },
    });
    return status.list_updates.consumer_running;
  }, 'the list-update consumer');

  // 1. The update, ingested as a new version; timed until monitoring recorded it re-screened.
  await copyFile(OFAC_2024, join(lists, 'ofac_sdn', 'sdn.csv'));
  const t0 = performance.now();
  const { results } = await request(subjects.screening.refresh, { sources: ['ofac-sdn'] });
  if (results[0]?.outcome !== 'updated') throw new Error(`refresh: ${JSON.stringify(results)}`);
  const ingestMs = Math.round(performance.now() - t0);
  const row = await until(
    async () => (await db.query(`SELECT * FROM ${m}.list_updates_processed`)).rows[0],
    'the re-screen of the new version',
  );
  const totalMs = Math.round(performance.now() - t0);
  const [{ n: alerts }] = (await db.query(`SELECT count(*)::int AS n FROM ${m}.monitoring_alerts`)).rows;
  log(`load during the re-screen: ${loadAverageText()}`);

  // 2. Webhook deliveries per second to a local receiver.
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200).end();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}/hook`;
  const endpoint = await request(subjects.monitoring.webhooks.create, {
    caller: { clientId: 'bench-0', tier: 'large', feeds: [...FEEDS], thresholds: DEFAULT_THRESHOLDS },
    actor: { kind: 'api_key', keyPrefix: 'bench' },
    url,
    event_types: ['monitoring.alert'],
  });
  const payload = JSON.stringify({
    type: 'monitoring.alert',
    timestamp: new Date().toISOString(),
    data: { bench: true },
  });
  const ids = Array.from({ length: DELIVERIES }, () => randomUUID());
  const w0 = performance.now();
  await db.query(
    `INSERT INTO ${m}.webhook_deliveries (id, endpoint_id, client_id, event_type, event_key, payload)
     SELECT id, $2, 'bench-0', 'monitoring.alert', 'bench:' || id, $3::jsonb FROM unnest($1::uuid[]) AS id`,
    [ids, endpoint.webhook.id, payload],
  );
  await until(
    async () =>
      (await db.query(`SELECT count(*)::int AS n FROM ${m}.webhook_deliveries WHERE status = 'delivered'`)).rows[0].n >=
      DELIVERIES,
    'all deliveries',
  );
  const deliverMs = performance.now() - w0;
  server.close();

  console.table([
    {
      figure: 're-screen of the book against the 2024-05-03 delta',
      'monitored names': BOOK,
      'delta names': row.delta_names,
      'candidates re-screened': row.candidates,
      'share of the book touched': `${((100 * row.candidates) / BOOK).toFixed(2)}%`,
      'alerts raised': row.alerts_raised,
      'monitoring re-screen ms': row.duration_ms,
      'ingestion start → re-screened ms': totalMs,
      'target ms': 60_000,
    },
  ]);
  console.table([
    {
      figure: 'webhook deliveries',
      deliveries: DELIVERIES,
      received,
      seconds: (deliverMs / 1000).toFixed(2),
      'deliveries/s': Math.round(DELIVERIES / (deliverMs / 1000)),
    },
  ]);
  log(`monitoring's re-screen phases (ms): ${JSON.stringify(row.phases_ms)}`);
  log(
    `screening's refresh answered in ${ingestMs} ms; alerts in the table: ${alerts}; load after: ${loadAverageText()}`,
  );
  process.exitCode = totalMs <= 60_000 ? 0 : 1;
} finally {
  await nc?.close().catch(() => undefined);
  for (const child of children.reverse()) if (child.exitCode === null) child.kill('SIGTERM');
  await sleep(1500);
  for (const s of ['screening', 'monitoring'])
    await db.query(`DROP SCHEMA IF EXISTS "${schema(s)}" CASCADE`).catch(() => undefined);
  await db.end();
  await rm(work, { recursive: true, force: true });
}
