// Integration test harness for monitoring, on the shared harness: screening (on a folder
// holding the OFAC SDN release of 2023-12-28 from ../shared), monitoring, and, for the HTTP
// tests, auth and the gateway, as child processes in throwaway schemas on a private NATS.
import { TEST_DATABASE_URL, TestStack, eventually, freePort } from '@vigil/platform/testing';
import { FEEDS, contracts, type Tier } from '@vigil/proto';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

export const SERVICES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SHARED_DATA = join(SERVICES_DIR, '..', '..', 'shared', 'data');
export const OFAC_2023 = join(SHARED_DATA, 'lists', 'ofac_sdn', 'sdn.csv');
export const OFAC_2024 = join(SHARED_DATA, 'list-updates', 'ofac_sdn_2024-05-03', 'sdn.csv');
export const DATABASE_URL = TEST_DATABASE_URL;
export { eventually };

type Service = 'auth' | 'screening' | 'monitoring' | 'gateway' | 'audit';

/** Env for monitoring in tests: fast scheduler and retries, loopback webhooks allowed. */
export const MONITORING_TEST_ENV: Record<string, string> = {
  SCHEDULER_INTERVAL_MS: '300',
  LIST_UPDATES_ACK_WAIT_MS: '4000',
  WEBHOOK_ALLOW_LOOPBACK: 'true',
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_POLL_MS: '100',
};

export class MonitoringStack extends TestStack {
  gatewayUrl = '';
  listsDir = '';

  constructor() {
    super(SERVICES_DIR, {
      prefix: `m${randomBytes(4).toString('hex')}`,
      rpcTimeoutMs: 30_000,
      env: {
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
        ARGON2_MEMORY_KIB: '1024',
        ARGON2_TIME_COST: '1',
        WEB_URL: 'http://web.test',
      },
    });
  }

  /** Superuser connections, no search_path: tests name the schema. */
  get db(): pg.Pool {
    return this.pool();
  }

  override env(service: string, extra: Record<string, string> = {}): Record<string, string> {
    return super.env(service, {
      ...(service === 'screening' ? { LISTS_DIR: this.listsDir } : {}),
      ...(service === 'monitoring' ? MONITORING_TEST_ENV : {}),
      ...extra,
    });
  }

  /** NATS, Postgres and the named services (screening and monitoring by default). */
  async start(services: Service[] = ['screening', 'monitoring'], monitoringEnv: Record<string, string> = {}) {
    await this.startNats();
    this.listsDir = await this.tempDir('vigil-lists-');
    await mkdir(join(this.listsDir, 'ofac_sdn'));
    await copyFile(OFAC_2023, join(this.listsDir, 'ofac_sdn', 'sdn.csv'));
    await Promise.all(services.filter((s) => s !== 'gateway').map((s) => this.migrate(s)));
    for (const service of services) {
      if (service === 'gateway') await this.startGateway();
      else this.startService(service, service === 'monitoring' ? monitoringEnv : {});
    }
    if (services.includes('auth')) await this.waitForHealth('auth', undefined, 90_000);
    if (services.includes('monitoring')) await this.waitForHealth('monitoring', undefined, 90_000);
    if (services.includes('audit')) await this.waitForHealth('audit', undefined, 90_000);
    if (services.includes('screening')) {
      const probe = { clientId: 'probe', tier: 'large' as const, feeds: [...FEEDS], entity: { name: 'probe' } };
      await this.waitFor(contracts.screening.screen, probe, { timeoutMs: 90_000, process: this.process('screening') });
    }
  }

  startService(service: Exclude<Service, 'gateway'>, extra: Record<string, string> = {}, name: string = service) {
    return this.spawn(service, extra, { name });
  }

  async startGateway() {
    const port = await freePort();
    this.gatewayUrl = `http://127.0.0.1:${port}`;
    const process = this.spawn('gateway', { PORT: String(port), HOST: '127.0.0.1', BULK_WORKER: 'false' });
    // Any answer means it listens (/health is 503 here: billing and audit do not run).
    await this.waitForHttp(`${this.gatewayUrl}/api/monitoring/stats`, { process });
  }

  /** Replaces the OFAC SDN file with the 2024-05-03 release and asks screening to ingest it now. */
  async ingestOfacUpdate() {
    await copyFile(OFAC_2024, join(this.listsDir, 'ofac_sdn', 'sdn.csv'));
    const { results } = await this.request(contracts.screening.refresh, { sources: ['ofac-sdn'] }, 120_000);
    const [result] = results;
    if (result?.outcome !== 'updated' || !result.delta) throw new Error(`refresh: ${JSON.stringify(results)}`);
    return { ...result, delta: result.delta };
  }

  /** A client provisioned the way billing does after a checkout (auth must run). */
  async client(tier: Tier, userId?: string) {
    const name = `Bank ${randomBytes(3).toString('hex')}`;
    const reply = await this.request(contracts.clients.provision, {
      clientName: name,
      contactEmail: `${name.replace(/\W+/g, '-').toLowerCase()}@example.com`,
      tier,
      ...(userId ? { userId } : {}),
    });
    return { id: reply.client.id, key: reply.api_key!, name };
  }

  /** A confirmed user of a new client, signed in through the gateway: the dashboard's headers. */
  async member(tier: Tier, email: string, password = 'monitoring-test-passphrase') {
    const post = (path: string, body: unknown) =>
      fetch(`${this.gatewayUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await post('/auth/v1/signup', {
      full_name: 'Analyst',
      email,
      password,
      confirm_password: password,
      accepted_terms: true,
    });
    let text = '';
    for (let i = 0; i < 100 && !text; i++) {
      // Read as the recipient, from auth's mailbox table: the dev mailbox route is for administrators.
      const { rows } = await this.db.query<{ text_body: string }>(
        `SELECT text_body FROM "${this.schema('auth')}".mailbox WHERE recipient = $1 ORDER BY created_at DESC LIMIT 1`,
        [email.toLowerCase()],
      );
      text = rows[0]?.text_body ?? '';
      if (!text) await new Promise((r) => setTimeout(r, 100));
    }
    const token = /token=([A-Za-z0-9_-]+)/.exec(text)![1];
    const session = (await (await post('/auth/v1/verify', { type: 'signup', token })).json()) as {
      user: { id: string };
    };
    const client = await this.client(tier, session.user.id);
    const signedIn = (await (await post('/auth/v1/token?grant_type=password', { email, password })).json()) as {
      access_token: string;
    };
    return {
      ...client,
      userId: session.user.id,
      headers: { 'x-api-key': client.key, authorization: `Bearer ${signedIn.access_token}` } as Record<string, string>,
    };
  }

  /** An HTTP call to the gateway with a member's headers; the body parsed as JSON when it is. */
  async http(
    member: { headers: Record<string, string> } | null,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Body; contentType: string }> {
    const response = await fetch(`${this.gatewayUrl}${path}`, {
      method,
      headers: { ...(member?.headers ?? {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const contentType = response.headers.get('content-type') ?? '';
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: response.status, body: parsed, contentType };
  }

  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.db.query(sql.replaceAll('$schema', `"${this.schema('monitoring')}"`), params)).rows as T[];
  }
}

/** A response body under test: JSON of whatever shape the route answers (tests assert it field by field). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Body = any;
