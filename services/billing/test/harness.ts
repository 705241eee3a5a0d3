// Integration-test harness for billing, on the shared harness: a private nats-server,
// throwaway Postgres schemas, and the built auth and billing services as child processes, so
// tests drive billing exactly as the gateway does (over NATS) and see what auth ends up holding.
import { DomainError, type RpcClient } from '@vigil/platform';
import { TEST_DATABASE_URL, TestStack, eventually, freePort, type ServiceProcess } from '@vigil/platform/testing';
import { FEEDS, contracts } from '@vigil/proto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { SecretBox } from '../src/crypto/secret-box.js';
import { DEVELOPMENT_ENCRYPTION_KEY } from '../src/env.js';
import { mailContext } from '../src/mail/mail-outbox.repository.js';

const SERVICES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DATABASE_URL = TEST_DATABASE_URL;
export { eventually, freePort };

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

/** Auth and billing on a private broker, each in its own new schema; `billingEnv` adds to billing's environment. */
export async function startBillingStack(
  billingEnv: Record<string, string> = {},
  options: { gateway?: boolean; gateways?: number; gatewayEnv?: Record<string, string>; screening?: boolean } = {},
): Promise<BillingStack> {
  const stack = new TestStack(SERVICES_DIR, { env: { WEB_URL: 'http://web.test' } });
  try {
    return await startOn(stack, billingEnv, options);
  } catch (error) {
    // Nothing a failed start spawned may outlive it: it would keep jest from exiting.
    await stack.stop();
    throw error;
  }
}

async function startOn(
  stack: TestStack,
  billingEnv: Record<string, string>,
  options: { gateway?: boolean; gateways?: number; gatewayEnv?: Record<string, string>; screening?: boolean },
): Promise<BillingStack> {
  const processes: ServiceProcess[] = [];
  const started = (process: ServiceProcess) => (processes.push(process), process);
  // JetStream on: the gateway publishes its quota crossings to the QUOTA stream, and billing hears them.
  await stack.startNats();
  const billingSchema = stack.schema('billing');
  await Promise.all([stack.migrate('auth'), stack.migrate('billing')]);
  const auth = started(stack.spawn('auth', { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' }));
  const billing = started(stack.spawn('billing', { BILLING_CHECK_INTERVAL_MS: '0', ...billingEnv }));
  await stack.waitForHealth('auth', auth);
  await stack.waitForHealth('billing', billing);

  // Screening (bundled sample lists, in-process index), so a key can be shown to screen end to end.
  if (options.screening) {
    await stack.migrate('screening');
    const screening = started(stack.spawn('screening'));
    const probe = { clientId: 'probe', tier: 'large' as const, feeds: [...FEEDS], entity: { name: 'probe' } };
    // Answering is not enough: wait until the index is loaded and a screening succeeds.
    await stack.waitFor(contracts.screening.screen, probe, { process: screening });
  }

  // The real HTTP edge, to show what a client holding the key would see (it migrates its own schema on boot).
  // Replicas share the gateway schema; without Redis each keeps its own in-memory rate-limit window.
  const gatewaySchema = stack.schema('gateway');
  const gatewayUrls: string[] = [];
  const gatewayCount = options.gateways ?? (options.gateway ? 1 : 0);
  for (let i = 0; i < gatewayCount; i++) {
    const port = await freePort();
    const gateway = started(
      stack.spawn(
        'gateway',
        { PORT: String(port), HOST: '127.0.0.1', KEY_CACHE_TTL_MS: '0', BULK_WORKER: 'false', ...options.gatewayEnv },
        { name: `gateway-${i}` },
      ),
    );
    const gatewayUrl = `http://127.0.0.1:${port}`;
    gatewayUrls.push(gatewayUrl);
    await stack.waitForHttp(`${gatewayUrl}/api/plans`, {
      accept: (status) => status === 200,
      timeoutMs: 30_000,
      process: gateway,
    });
  }

  const db = await stack.connect('billing');
  const authDb = await stack.connect('auth');
  const rpc: RpcClient = stack.rpc;

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
      const sub = stack.nc.subscribe(subject);
      void (async () => {
        for await (const msg of sub) {
          const body = msg.json<{ data?: unknown }>();
          received.push(body && typeof body === 'object' && 'data' in body ? body.data : body);
        }
      })();
      return received;
    },
    publish: async (subject, payload) => {
      stack.nc.publish(subject, JSON.stringify(payload));
      await stack.nc.flush();
    },
    logs: () => [...processes].map((p) => p.output).join(''),
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
    stop: () => stack.stop(),
  };
}
