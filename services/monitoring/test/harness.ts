// Integration test harness for monitoring: a private nats-server with JetStream, throwaway
// Postgres schemas, and the built services run as child processes, as in production:
// screening (on a folder holding the OFAC SDN release of 2023-12-28 from ../shared), monitoring,
// and, for the HTTP tests, auth and the gateway.
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { freePort, natsServerBinary } from '@vigil/platform/testing';
import { FEEDS, subjects, type ProvisionClientReply, type Tier } from '@vigil/proto';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const SERVICES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SHARED_DATA = join(SERVICES_DIR, '..', '..', 'shared', 'data');
export const OFAC_2023 = join(SHARED_DATA, 'lists', 'ofac_sdn', 'sdn.csv');
export const OFAC_2024 = join(SHARED_DATA, 'list-updates', 'ofac_sdn_2024-05-03', 'sdn.csv');
export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vigil_test';

type Service = 'auth' | 'screening' | 'monitoring' | 'gateway';

/** Env for monitoring in tests: fast scheduler and retries, loopback webhooks allowed. */
export const MONITORING_TEST_ENV: Record<string, string> = {
  SCHEDULER_INTERVAL_MS: '300',
  LIST_UPDATES_ACK_WAIT_MS: '4000',
  WEBHOOK_ALLOW_LOOPBACK: 'true',
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_POLL_MS: '100',
};

export class MonitoringStack {
  readonly prefix = `m${randomBytes(4).toString('hex')}`;
  natsUrl = '';
  gatewayUrl = '';
  listsDir = '';
  nc!: NatsConnection;
  db!: pg.Client;
  private nats?: ChildProcess;
  private readonly dirs: string[] = [];
  private readonly children = new Set<ChildProcess>();
  readonly processes = new Map<string, ChildProcess>();

  schema(service: Service) {
    return `${this.prefix}_${service}`;
  }

  env(service: Service, extra: Record<string, string> = {}): Record<string, string> {
    return {
      DATABASE_URL,
      NATS_URL: this.natsUrl,
      DB_SCHEMA: this.schema(service),
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      ARGON2_MEMORY_KIB: '1024',
      ARGON2_TIME_COST: '1',
      WEB_URL: 'http://web.test',
      ...(service === 'screening' ? { LISTS_DIR: this.listsDir } : {}),
      ...(service === 'monitoring' ? MONITORING_TEST_ENV : {}),
      ...extra,
    };
  }

  /** NATS, Postgres and the named services (screening and monitoring by default). */
  async start(services: Service[] = ['screening', 'monitoring'], monitoringEnv: Record<string, string> = {}) {
    const port = await freePort();
    const natsDir = await this.tempDir('vigil-nats-');
    this.nats = spawn(
      natsServerBinary() ?? 'nats-server',
      ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', natsDir],
      {
        stdio: 'ignore',
      },
    );
    this.natsUrl = `nats://127.0.0.1:${port}`;
    this.listsDir = await this.tempDir('vigil-lists-');
    await mkdir(join(this.listsDir, 'ofac_sdn'));
    await copyFile(OFAC_2023, join(this.listsDir, 'ofac_sdn', 'sdn.csv'));
    for (let i = 0; ; i++) {
      try {
        this.nc = await connect({ servers: this.natsUrl, timeout: 500 });
        break;
      } catch (error) {
        if (i > 50) throw error;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    this.db = new pg.Client({ connectionString: DATABASE_URL });
    await this.db.connect();
    await Promise.all(services.filter((s) => s !== 'gateway').map((s) => this.migrate(s)));
    for (const service of services) {
      if (service === 'gateway') await this.startGateway();
      else this.startService(service, service === 'monitoring' ? monitoringEnv : {});
    }
    if (services.includes('auth')) await this.waitFor(subjects.health('auth'), {});
    if (services.includes('monitoring')) await this.waitFor(subjects.health('monitoring'), {});
    if (services.includes('screening')) {
      await this.waitFor(subjects.screening.screen, {
        clientId: 'probe',
        tier: 'large',
        feeds: [...FEEDS],
        entity: { name: 'probe' },
      });
    }
  }

  async migrate(service: Exclude<Service, 'gateway'>) {
    const result = await runNode(join(SERVICES_DIR, service, 'dist', 'src', 'migrate.js'), this.env(service));
    if (result.code !== 0) throw new Error(`${service} migrations failed: ${result.output}`);
  }

  startService(
    service: Exclude<Service, 'gateway'>,
    extra: Record<string, string> = {},
    name: string = service,
  ): ChildProcess {
    const child = this.spawn(join(SERVICES_DIR, service, 'dist', 'src', 'main.js'), this.env(service, extra));
    this.processes.set(name, child);
    return child;
  }

  async startGateway() {
    const port = await freePort();
    this.gatewayUrl = `http://127.0.0.1:${port}`;
    this.spawn(
      join(SERVICES_DIR, 'gateway', 'dist', 'src', 'main.js'),
      this.env('gateway', { PORT: String(port), HOST: '127.0.0.1', BULK_WORKER: 'false' }),
    );
    const started = Date.now();
    for (;;) {
      try {
        // Any answer means it listens (/health is 503 here: billing and audit do not run).
        await fetch(`${this.gatewayUrl}/api/monitoring/stats`);
        return;
      } catch {
        // starting
      }
      if (Date.now() - started > 60_000) throw new Error('the gateway did not start');
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** Stops a service process: SIGKILL (a crash) or SIGTERM. */
  kill(name: string, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.processes.get(name);
    this.processes.delete(name);
    return new Promise((resolve) => {
      if (!child || child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  private spawn(script: string, env: Record<string, string>): ChildProcess {
    const child = spawn(process.execPath, [script], {
      env: { ...process.env, ...env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    return child;
  }

  async tempDir(prefix: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  /** A NATS request in Nest's envelope; rejects with the remote error's code. */
  async request<T>(subject: string, payload: unknown, timeout = 30_000): Promise<T> {
    const reply = await this.nc.request(subject, JSON.stringify({ pattern: subject, data: payload, id: '1' }), {
      timeout,
    });
    const body = reply.json<{ response?: T; err?: { code: string; message: string } }>();
    if (body.err)
      throw Object.assign(new Error(`${subject}: ${body.err.code} ${body.err.message}`), { code: body.err.code });
    return body.response as T;
  }

  private async waitFor(subject: string, payload: unknown) {
    const started = Date.now();
    for (;;) {
      try {
        await this.request(subject, payload, 2_000);
        return;
      } catch (error) {
        if (Date.now() - started > 90_000) throw new Error(`${subject} did not answer: ${String(error)}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  /** Replaces the OFAC SDN file with the 2024-05-03 release and asks screening to ingest it now. */
  async ingestOfacUpdate(): Promise<{ versionId: number; delta: { added: number; changed: number; removed: number } }> {
    await copyFile(OFAC_2024, join(this.listsDir, 'ofac_sdn', 'sdn.csv'));
    const { results } = await this.request<{
      results: Array<{
        outcome: string;
        versionId: number;
        delta: { added: number; changed: number; removed: number };
      }>;
    }>(subjects.screening.refresh, { sources: ['ofac-sdn'] }, 120_000);
    const [result] = results;
    if (result?.outcome !== 'updated') throw new Error(`refresh: ${JSON.stringify(results)}`);
    return result;
  }

  /** A client provisioned the way billing does after a checkout (auth must run). */
  async client(tier: Tier, userId?: string) {
    const name = `Bank ${randomBytes(3).toString('hex')}`;
    const reply = await this.request<ProvisionClientReply>(subjects.clients.provision, {
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

  async stop() {
    await Promise.all(
      [...this.children].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
          }),
      ),
    );
    await this.nc?.close().catch(() => undefined);
    // nats-server writes its JetStream store until it exits: remove the directory only after that.
    const nats = this.nats;
    if (nats && nats.exitCode === null) {
      await new Promise<void>((resolve) => {
        nats.once('exit', () => resolve());
        nats.kill('SIGTERM');
        setTimeout(() => nats.kill('SIGKILL'), 5_000).unref();
      });
    }
    if (this.db) {
      for (const s of ['auth', 'screening', 'monitoring', 'gateway'] as const)
        await this.db.query(`DROP SCHEMA IF EXISTS "${this.schema(s)}" CASCADE`).catch(() => undefined);
      await this.db.end();
    }
    for (const dir of this.dirs) await rm(dir, { recursive: true, force: true, maxRetries: 5 });
  }
}

/** A response body under test: JSON of whatever shape the route answers (tests assert it field by field). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Body = any;

export function runNode(script: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { env: { ...process.env, ...env, NODE_OPTIONS: '' } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/** Polls `fn` until `accept` holds; the last value and the time it took. */
export async function eventually<T>(fn: () => Promise<T>, accept: (value: T) => boolean, timeoutMs: number) {
  const started = Date.now();
  let value = await fn();
  while (!accept(value)) {
    if (Date.now() - started > timeoutMs)
      throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 150));
    value = await fn();
  }
  return { value, elapsedMs: Date.now() - started };
}
