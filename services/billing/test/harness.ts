// Integration-test harness: a private nats-server, throwaway Postgres schemas, and the built
// auth and billing services as child processes, so tests drive billing exactly as the
// gateway does (over NATS) and see what auth ends up holding.
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { DomainError, Nats, RpcClient, runMigrations } from '@vigil/platform';
import { FEEDS, contracts, type ServiceName } from '@vigil/proto';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { migrations } from '../migrations/index.js';
import { SecretBox } from '../src/crypto/secret-box.js';
import { DEVELOPMENT_ENCRYPTION_KEY } from '../src/env.js';
import { mailContext } from '../src/mail/mail-outbox.repository.js';
import { freePort, natsServerBinary } from '@vigil/platform/testing';

const SERVICES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vigil_test';

export type BillingStack = {
  rpc: RpcClient;
  /** Billing's schema. */
  db: pg.Client;
  /** Auth's schema: what the gateway would read through clients.v1.resolve-key. */
  authDb: pg.Client;
  call: <T>(subject: string, payload: unknown) => Promise<T>;
  fail: (subject: string, payload: unknown) => Promise<DomainError>;
  events: (subject: string) => unknown[];
  /** Publishes plain JSON, as the gateway's JetStream publisher does. */
  publish: (subject: string, payload: unknown) => Promise<void>;
  logs: () => string;
  /** The mail billing sent to one address, opened with the (development) key billing runs with. */
  mailTo: (recipient: string) => Promise<Array<{ subject: string; body: string }>>;
  /**
   * Puts a client in the billing period [start, end) on both sides, billing's customer and auth's
   * client (with usage counting that period), as if it had subscribed that long ago.
   */
  movePeriod: (clientId: string, start: Date, end: Date) => Promise<void>;
  /** Every row of every table in billing's schema, as text: what a database dump would show. */
  dump: () => Promise<string>;
  /** The gateway's base URL when started with `{ gateway: true }` (the first one with `gateways`). */
  gatewayUrl: string | undefined;
  /** Every gateway replica's base URL (they share one gateway schema, as replicas share a database). */
  gatewayUrls: string[];
  /** The gateway replicas' schema (quota_usage: the usage counters). */
  gatewaySchema: string;
  stop: () => Promise<void>;
};

async function waitForHealth(rpc: RpcClient, service: ServiceName, child: ChildProcess, logs: () => string) {
  const started = Date.now();
  for (;;) {
    try {
      await rpc.request(contracts.health(service), {}, { timeoutMs: 500 });
      return;
    } catch {
      if (child.exitCode !== null || Date.now() - started > 20_000)
        throw new Error(`${service} did not start:\n${logs()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Auth and billing on a private broker, each in its own new schema; `billingEnv` adds to billing's environment. */
export async function startBillingStack(
  billingEnv: Record<string, string> = {},
  options: { gateway?: boolean; gateways?: number; gatewayEnv?: Record<string, string>; screening?: boolean } = {},
): Promise<BillingStack> {
  const tag = randomBytes(4).toString('hex');
  const authSchema = `t${tag}_auth`;
  const billingSchema = `t${tag}_billing`;
  const { migrations: authMigrations } = (await import(
    join(SERVICES_DIR, 'auth', 'dist', 'migrations', 'index.js')
  )) as { migrations: Parameters<typeof runMigrations>[0]['migrations'] };
  await runMigrations({ databaseUrl: DATABASE_URL, schema: authSchema, migrations: authMigrations });
  await runMigrations({ databaseUrl: DATABASE_URL, schema: billingSchema, migrations });

  let natsProcess: ChildProcess | undefined;
  let natsStore: string | undefined;
  let natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  const binary = natsServerBinary();
  if (binary) {
    const port = await freePort();
    // JetStream on: the gateway publishes its quota crossings to the QUOTA stream, and billing hears them.
    natsStore = mkdtempSync(join(tmpdir(), 'vigil-billing-nats-'));
    natsProcess = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', natsStore], { stdio: 'ignore' });
    natsUrl = `nats://127.0.0.1:${port}`;
  }
  let nc: NatsConnection | undefined;
  for (let i = 0; i < 50 && !nc; i++) {
    nc = await connect({ servers: natsUrl }).catch(async () => {
      await new Promise((r) => setTimeout(r, 100));
      return undefined;
    });
  }
  if (!nc) throw new Error(`NATS did not come up at ${natsUrl}`);

  let output = '';
  const start = (service: 'auth' | 'billing' | 'gateway' | 'screening', env: Record<string, string>) => {
    const child = spawn(process.execPath, [join(SERVICES_DIR, service, 'dist', 'src', 'main.js')], {
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        DATABASE_URL,
        NATS_URL: natsUrl,
        LOG_LEVEL: 'warn',
        WEB_URL: 'http://web.test',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    return child;
  };
  const auth = start('auth', { DB_SCHEMA: authSchema, ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' });
  const billing = start('billing', { DB_SCHEMA: billingSchema, BILLING_CHECK_INTERVAL_MS: '0', ...billingEnv });

  const rpc = new RpcClient(new Nats(nc), 10_000);
  await waitForHealth(rpc, 'auth', auth, () => output);
  await waitForHealth(rpc, 'billing', billing, () => output);

  // Screening (bundled sample lists, in-process index), so a key can be shown to screen end to end.
  const screeningSchema = `t${tag}_screening`;
  let screening: ChildProcess | undefined;
  if (options.screening) {
    const { migrations: screeningMigrations } = (await import(
      join(SERVICES_DIR, 'screening', 'dist', 'migrations', 'index.js')
    )) as { migrations: Parameters<typeof runMigrations>[0]['migrations'] };
    await runMigrations({ databaseUrl: DATABASE_URL, schema: screeningSchema, migrations: screeningMigrations });
    screening = start('screening', { DB_SCHEMA: screeningSchema });
    const started = Date.now();
    const probe = { clientId: 'probe', tier: 'large' as const, feeds: [...FEEDS], entity: { name: 'probe' } };
    // Answering is not enough: wait until the index is loaded and a screening succeeds.
    for (;;) {
      try {
        await rpc.request(contracts.screening.screen, probe, { timeoutMs: 2_000 });
        break;
      } catch {
        if (screening.exitCode !== null || Date.now() - started > 60_000)
          throw new Error(`screening did not start:\n${output}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  // The real HTTP edge, to show what a client holding the key would see (it migrates its own schema on boot).
  // Replicas share the gateway schema; without Redis each keeps its own in-memory rate-limit window.
  const gatewaySchema = `t${tag}_gateway`;
  const gateways: ChildProcess[] = [];
  const gatewayUrls: string[] = [];
  const gatewayCount = options.gateways ?? (options.gateway ? 1 : 0);
  for (let i = 0; i < gatewayCount; i++) {
    const port = await freePort();
    const gateway = start('gateway', {
      DB_SCHEMA: gatewaySchema,
      PORT: String(port),
      HOST: '127.0.0.1',
      KEY_CACHE_TTL_MS: '0',
      BULK_WORKER: 'false',
      ...options.gatewayEnv,
    });
    gateways.push(gateway);
    const gatewayUrl = `http://127.0.0.1:${port}`;
    gatewayUrls.push(gatewayUrl);
    const started = Date.now();
    for (;;) {
      const up = await fetch(`${gatewayUrl}/api/plans`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (gateway.exitCode !== null || Date.now() - started > 30_000)
        throw new Error(`gateway did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  const db = new pg.Client({ connectionString: DATABASE_URL, options: `-c search_path="${billingSchema}"` });
  const authDb = new pg.Client({ connectionString: DATABASE_URL, options: `-c search_path="${authSchema}"` });
  await db.connect();
  await authDb.connect();

  const call = <T>(subject: string, payload: unknown) => rpc.requestUnchecked(subject, payload) as Promise<T>;
  return {
    rpc,
    db,
    authDb,
    call,
    fail: async (subject, payload) => {
      try {
        await call(subject, payload);
      } catch (error) {
        if (error instanceof DomainError) return error;
        throw error;
      }
      throw new Error(`${subject} succeeded but was expected to fail`);
    },
    events: (subject) => {
      const received: unknown[] = [];
      const sub = nc!.subscribe(subject);
      void (async () => {
        for await (const msg of sub) {
          const body = msg.json<{ data?: unknown }>();
          received.push(body && typeof body === 'object' && 'data' in body ? body.data : body);
        }
      })();
      return received;
    },
    publish: async (subject, payload) => {
      nc!.publish(subject, JSON.stringify(payload));
      await nc!.flush();
    },
    logs: () => output,
    mailTo: async (recipient) => {
      const box = new SecretBox({ BILLING_ENCRYPTION_KEY: DEVELOPMENT_ENCRYPTION_KEY });
      const { rows } = await db.query<{ id: string; subject: string; body: string }>(
        `SELECT id, subject, body FROM mail_outbox WHERE recipient = $1 ORDER BY created_at, id`,
        [recipient],
      );
      return rows.map((row) => ({ subject: row.subject, body: box.open(row.body, mailContext(row.id)) }));
    },
    movePeriod: async (clientId, start, end) => {
      await db.query(`UPDATE customers SET period_start = $2, period_end = $3 WHERE client_id = $1`, [
        clientId,
        start,
        end,
      ]);
      await authDb.query(
        `UPDATE clients SET period_start = $2, period_end = $3, usage_period_start = $2 WHERE id = $1`,
        [clientId, start, end],
      );
    },
    dump: async () => {
      const { rows: tables } = await db.query<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`,
        [billingSchema],
      );
      let text = '';
      for (const { name } of tables) {
        const { rows } = await db.query<{ row: string }>(`SELECT t::text AS row FROM "${billingSchema}"."${name}" t`);
        text += rows.map((r) => `${name}: ${r.row}`).join('\n') + '\n';
      }
      return text;
    },
    gatewayUrl: gatewayUrls[0],
    gatewayUrls,
    gatewaySchema,
    stop: async () => {
      const stopped = (child: ChildProcess) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        });
      await Promise.all([
        stopped(auth),
        stopped(billing),
        ...gateways.map(stopped),
        ...(screening ? [stopped(screening)] : []),
      ]);
      await db.query(`DROP SCHEMA IF EXISTS "${billingSchema}" CASCADE`).catch(() => undefined);
      await db.query(`DROP SCHEMA IF EXISTS "${gatewaySchema}" CASCADE`).catch(() => undefined);
      await db.query(`DROP SCHEMA IF EXISTS "${screeningSchema}" CASCADE`).catch(() => undefined);
      await db.query(`DROP SCHEMA IF EXISTS "${authSchema}" CASCADE`).catch(() => undefined);
      await db.end();
      await authDb.end();
      await nc!.close();
      natsProcess?.kill('SIGTERM');
      if (natsStore) rmSync(natsStore, { recursive: true, force: true });
    },
  };
}

export async function eventually<T>(
  fn: () => T | Promise<T>,
  accept: (v: T) => boolean,
  timeoutMs = 3_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export { freePort };
