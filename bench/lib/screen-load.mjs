// What bench:gateway and bench:floor share: the command line, a private nats-server, the
// screening bodies they replay, autocannon's options for POST /api/v1/screen, and the CPU every
// process on the path spends while the load runs. Both benches must drive the path the same way
// for the floor to bound the gateway.
import { freePort } from '@vigil/platform/testing';
import { processCpuMs } from './host.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `--name value` options and `--flag` switches of this process's command line. */
export function commandLine(argv = process.argv.slice(2)) {
  return {
    arg(name, fallback) {
      const i = argv.indexOf(name);
      return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback;
    },
    flag: (name) => argv.includes(name),
  };
}

/** A nats-server with JetStream on a free port and a throwaway store, so no other service sees the load. */
export async function startPrivateNats() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bench-nats-'));
  const bin =
    spawnSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' }).stdout.trim() || '/usr/sbin/nats-server';
  const child = spawn(bin, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], { stdio: 'ignore' });
  return {
    url: `nats://127.0.0.1:${port}`,
    pid: child.pid,
    stop() {
      child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The development set's queries as POST /api/v1/screen bodies: name, and the entity type where the API knows it. */
export function screenBodies(root) {
  return readFileSync(join(root, '..', 'shared', 'eval', 'dev-queries.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line).query)
    .filter((q) => q.name)
    .map((q) =>
      JSON.stringify({
        name: q.name,
        ...(q.entityType
          ? {
              entityType: ['individual', 'organization', 'vessel', 'aircraft'].includes(q.entityType)
                ? q.entityType
                : undefined,
            }
          : {}),
      }),
    );
}

/** autocannon's options for `duration` s of POST `url` with `connections`, each connection walking the bodies from a random start. */
export function screenLoad({ url, key, bodies, connections, duration }) {
  return {
    url,
    method: 'POST',
    connections,
    duration,
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    requests: [
      {
        setupRequest: (req, ctx) => ({
          ...req,
          body: bodies[(ctx.i = ((ctx.i ?? Math.floor(Math.random() * bodies.length)) + 1) % bodies.length)],
        }),
      },
    ],
  };
}

/**
 * CPU ms each part of the path used while `work` runs: the named processes, the Postgres backends
 * whose application_name matches `backends` (SQL LIKE), Redis and this process (autocannon).
 * Per request, this is what decides throughput on a shared machine, whatever the load average says.
 */
export async function meterCpu(processes, db, backends, work) {
  const redis = spawnSync('sh', ['-c', 'pidof redis-server'], { encoding: 'utf8' }).stdout.trim().split(/\s+/)[0];
  const sample = async () => {
    const pids = (
      await db.query(`SELECT pid FROM pg_stat_activity WHERE application_name LIKE $1`, [backends])
    ).rows.map((r) => r.pid);
    const values = Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, processCpuMs(pid)]));
    values.postgres = Object.fromEntries(pids.map((pid) => [pid, processCpuMs(pid)]));
    values.redis = redis ? processCpuMs(redis) : NaN;
    const self = process.cpuUsage();
    values.bench = (self.user + self.system) / 1000;
    return values;
  };
  const before = await sample();
  const result = await work();
  const after = await sample();
  const used = {};
  for (const name of Object.keys(after)) {
    used[name] =
      name === 'postgres'
        ? Object.entries(after.postgres).reduce((sum, [pid, ms]) => sum + ms - (before.postgres[pid] ?? 0), 0)
        : after[name] - before[name];
  }
  return { result, used };
}

/** `used` (ms) spread over `requests`, to the µs, and its total. */
export function perRequest(used, requests) {
  const each = Object.fromEntries(
    Object.entries(used).map(([name, ms]) => [name, Math.round((ms * 1000) / Math.max(1, requests)) / 1000]),
  );
  const total = Object.values(each).reduce((sum, ms) => sum + (Number.isFinite(ms) ? ms : 0), 0);
  return { each, total };
}

/**
 * Stops the child processes still running (SIGTERM) and waits for each to exit. One that already
 * exited by a signal has no exit code, only a signal code: waiting for its exit would never end.
 */
export function stopChildren(children) {
  return Promise.all(
    children.map(
      (c) =>
        new Promise((r) =>
          c.exitCode !== null || c.signalCode !== null ? r() : (c.once('exit', r), c.kill('SIGTERM')),
        ),
    ),
  );
}
