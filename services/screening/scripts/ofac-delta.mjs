// Compares the OFAC SDN release of 2023-12-28 (shared/data/lists/ofac_sdn) with the one of
// 2024-05-03 (shared/data/list-updates/ofac_sdn_2024-05-03) twice:
//   1. directly: the two sdn.csv files row by row, keyed by ent_num, with a CSV reader of
//      its own (not @vigil/lists), so the check is independent of the product's parser;
//   2. through ingestion: the built screening service ingests the first release, then the
//      second (admin refresh over NATS), and the delta it records is read back.
// The 2024 release has sdn.csv only (no add/alt/comments), so ingestion runs twice: with
// sdn.csv alone on both sides (what the direct comparison can check), and with the full 2023
// set followed by the 2024 sdn.csv (what a refresh that loses its companion files does).
//
//   npm run delta:ofac -w @vigil/screening      (after npx nx run @vigil/screening:build)
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBenchPostgres } from '../../../infra/scripts/infrastructure.mjs';
import { binaryOf } from '../../../infra/scripts/machine.mjs';

const SERVICE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = resolve(SERVICE_DIR, '..', '..', '..', 'shared', 'data');
const OLD_DIR = join(SHARED, 'lists', 'ofac_sdn');
const NEW_DIR = join(SHARED, 'list-updates', 'ofac_sdn_2024-05-03');

const EOF_MARK = String.fromCharCode(0x1a);
const isBlank = (record) => record.length === 1 && record[0].replace(EOF_MARK, '').trim() === '';

/** RFC 4180 records; OFAC's trailing Ctrl-Z and blank lines yield none. */
function csvRecords(text) {
  const records = [];
  let record = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      if (!isBlank(record)) records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    if (!isBlank(record)) records.push(record);
  }
  return records;
}

function rowsByEntNum(path) {
  const rows = new Map();
  for (const r of csvRecords(readFileSync(path, 'latin1'))) rows.set(r[0].trim(), r.map((f) => f.trim()).join('\u0001'));
  return rows;
}

function directDelta() {
  const before = rowsByEntNum(join(OLD_DIR, 'sdn.csv'));
  const after = rowsByEntNum(join(NEW_DIR, 'sdn.csv'));
  const added = [...after.keys()].filter((k) => !before.has(k));
  const removed = [...before.keys()].filter((k) => !after.has(k));
  const changed = [...after.keys()].filter((k) => before.has(k) && before.get(k) !== after.get(k));
  return { before: before.size, after: after.size, added, changed, removed };
}

const freePort = () =>
  new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });

async function throughIngestion(label, firstFiles) {
  const { url: DATABASE_URL } = await ensureBenchPostgres();
  const { connect } = await import('@nats-io/transport-node');
  const { default: pg } = await import('pg');
  const work = await mkdtemp(join(tmpdir(), 'vigil-delta-'));
  const lists = join(work, 'lists', 'ofac_sdn');
  await mkdir(lists, { recursive: true });
  for (const f of firstFiles) await copyFile(join(OLD_DIR, f), join(lists, f));
  const port = await freePort();
  const nats = spawn(binaryOf('nats-server') ?? 'nats-server', ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', join(work, 'nats')], { stdio: 'ignore' });
  const schema = `delta_${randomBytes(4).toString('hex')}`;
  const env = { ...process.env, NODE_OPTIONS: '', DATABASE_URL, NATS_URL: `nats://127.0.0.1:${port}`, DB_SCHEMA: schema, LISTS_DIR: join(work, 'lists'), LOG_LEVEL: 'warn' };
  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  let service;
  let nc;
  try {
    const migrate = spawnSync(process.execPath, [join(SERVICE_DIR, 'dist', 'src', 'migrate.js')], { env, encoding: 'utf8' });
    if (migrate.status !== 0) throw new Error(migrate.stderr);
    service = spawn(process.execPath, [join(SERVICE_DIR, 'dist', 'src', 'main.js')], { env, stdio: 'ignore' });
    for (let i = 0; !nc; i++) {
      try {
        nc = await connect({ servers: env.NATS_URL, timeout: 500 });
      } catch (e) {
        if (i > 50) throw e;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const request = async (subject, data) => {
      const m = await nc.request(subject, JSON.stringify({ pattern: subject, data, id: '1' }), { timeout: 120_000 });
      const body = m.json();
      if (body.err) throw new Error(`${subject}: ${body.err.code} ${body.err.message}`);
      return body.response;
    };
    let first;
    for (;;) {
      try {
        const { lists: l } = await request('screening.v1.lists', {});
        first = l.find((s) => s.source === 'ofac-sdn' && s.status === 'active');
        if (first) break;
      } catch {
        // starting
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    await rm(lists, { recursive: true });
    await mkdir(lists);
    await copyFile(join(NEW_DIR, 'sdn.csv'), join(lists, 'sdn.csv'));
    let started = performance.now();
    let [outcome] = (await request('screening.v1.refresh', { sources: ['ofac-sdn'] })).results;
    let refused = null;
    if (outcome.outcome === 'failed' && /missing/.test(outcome.error ?? '')) {
      // The release lacks companion files the first one had: refused unless forced.
      refused = outcome.error;
      started = performance.now();
      [outcome] = (await request('screening.v1.refresh', { sources: ['ofac-sdn'], force: true })).results;
    }
    const ms = Math.round(performance.now() - started);
    if (outcome.outcome !== 'updated') throw new Error(`refresh: ${JSON.stringify(outcome)}`);
    const { rows } = await db.query(`SELECT change, array_agg(source_id) AS ids FROM "${schema}".entity_changes WHERE version_id = $1 GROUP BY change`, [outcome.versionId]);
    const ids = Object.fromEntries(rows.map((r) => [r.change, r.ids]));
    return { label, before: first.entityCount, after: first.entityCount + outcome.delta.added - outcome.delta.removed, ms, refused, added: ids.added ?? [], changed: ids.changed ?? [], removed: ids.removed ?? [] };
  } finally {
    await nc?.close();
    if (service && service.exitCode === null) {
      const exited = new Promise((r) => service.once('exit', r));
      service.kill('SIGTERM');
      await exited;
    }
    nats.kill('SIGTERM');
    await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db.end();
    await rm(work, { recursive: true, force: true });
  }
}

if (!existsSync(join(SERVICE_DIR, 'dist', 'src', 'main.js'))) {
  process.stderr.write('build the service first: npx nx run @vigil/screening:build\n');
  process.exit(1);
}

const same = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();
const direct = directDelta();
const sdnOnly = await throughIngestion('ingestion, sdn.csv only on both sides', ['sdn.csv']);
const fullSet = await throughIngestion('ingestion, full 2023 set then 2024 sdn.csv (forced)', ['sdn.csv', 'add.csv', 'alt.csv', 'sdn_comments.csv']);
console.table(
  [{ label: 'direct row comparison (ent_num)', ...direct }, sdnOnly, fullSet].map((r) => ({
    comparison: r.label,
    'entities before': r.before,
    'entities after': r.after,
    added: r.added.length,
    changed: r.changed.length,
    removed: r.removed.length,
    ...(r.ms !== undefined ? { 'refresh ms': r.ms } : {}),
  })),
);
const agree = same(direct.added, sdnOnly.added) && same(direct.changed, sdnOnly.changed) && same(direct.removed, sdnOnly.removed);
console.log(`direct vs ingestion (sdn.csv only): the added, changed and removed ent_nums ${agree ? 'are identical' : 'DIFFER'}`);
if (!agree) {
  for (const kind of ['added', 'changed', 'removed']) {
    const onlyDirect = direct[kind].filter((id) => !sdnOnly[kind].includes(id));
    const onlyIngest = sdnOnly[kind].filter((id) => !direct[kind].includes(id));
    if (onlyDirect.length || onlyIngest.length) console.log(`  ${kind}: only direct ${onlyDirect.slice(0, 20).join(', ')}; only ingestion ${onlyIngest.slice(0, 20).join(', ')}`);
  }
}
const aliasOnly = fullSet.changed.length - sdnOnly.changed.length;
console.log(`full set then sdn.csv alone: refused at first (${fullSet.refused ?? 'not refused'}); forced, ${aliasOnly} more entities count as changed, because the 2024 release has no alt/add/comments files and their aliases and addresses are gone`);
process.exitCode = agree ? 0 : 1;
