// The real stack for the audit tests: a private nats-server with JetStream (no other test's
// streams or consumers can interfere), the built auth, gateway, audit (and, when asked,
// screening) services as child processes in throwaway schemas, and plain HTTP against the
// gateway. The audit service is a child process so that a test can kill -9 it.
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { freePort, natsServerBinary } from '@vigil/platform/testing';
import { contracts, type Contract, type ReplyOf, type RequestOf, type Tier } from '@vigil/proto';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const SERVICES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const AUDIT_DIR = join(SERVICES_DIR, 'audit');
export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vigil_test';
export const PASSWORD = 'audit-trail-passphrase';

type Owner = 'auth' | 'gateway' | 'audit' | 'screening';

export function runNode(
  script: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env, NODE_OPTIONS: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

export async function eventually<T>(
  fn: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs: number,
): Promise<{ value: T; elapsedMs: number }> {
  const started = Date.now();
  for (;;) {
    const value = await fn();
    if (accept(value)) return { value, elapsedMs: Date.now() - started };
    if (Date.now() - started > timeoutMs)
      throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(value)?.slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export type Reply = { status: number; headers: Headers; text: string; body: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

export class AuditStack {
  readonly prefix = `ta${randomBytes(4).toString('hex')}`;
  readonly adminEmail = `audit-admin-${randomBytes(3).toString('hex')}@vigil.dev`;
  natsUrl = '';
  gatewayUrl = '';
  nc?: NatsConnection;
  private natsDir = '';
  private nats?: ChildProcess;
  private readonly children = new Set<ChildProcess>();
  private audit?: ChildProcess;
  private db?: pg.Pool;

  schema(owner: Owner) {
    return `${this.prefix}_${owner}`;
  }

  env(owner: Owner, extra: Record<string, string> = {}): Record<string, string> {
    return {
      DATABASE_URL,
      NATS_URL: this.natsUrl,
      DB_SCHEMA: this.schema(owner),
      LOG_LEVEL: 'warn',
      ARGON2_MEMORY_KIB: '1024',
      ARGON2_TIME_COST: '1',
      WEB_URL: 'http://web.test',
      ADMIN_EMAILS: this.adminEmail,
      ...extra,
    };
  }

  auditEnv(extra: Record<string, string> = {}) {
    return this.env('audit', { AUDIT_ACK_WAIT_MS: '2000', AUDIT_RETENTION_EVERY_HOURS: '0', ...extra });
  }

  /** Starts NATS and the services; `gateway: false` leaves only NATS and the audit service. */
  async start(options: { gateway?: boolean; screening?: boolean; gatewayEnv?: Record<string, string> } = {}) {
    const { gateway = true, screening = false } = options;
    const port = await freePort();
    this.natsDir = mkdtempSync(join(tmpdir(), 'vigil-audit-nats-'));
    this.nats = spawn(
      natsServerBinary() ?? 'nats-server',
      ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', this.natsDir],
      { stdio: 'ignore' },
    );
    this.natsUrl = `nats://127.0.0.1:${port}`;
    const backends: Owner[] = [
      'audit',
      ...(gateway ? (['auth'] as const) : []),
      ...(screening ? (['screening'] as const) : []),
    ];
    await Promise.all(backends.map((s) => this.migrate(s)));
    this.nc = await connectWithRetry(this.natsUrl);
    this.startAudit();
    for (const service of backends.filter((s) => s !== 'audit'))
      this.spawn(join(SERVICES_DIR, service, 'dist', 'src', 'main.js'), this.env(service));
    await this.waitFor(contracts.health('audit'), {});
    if (gateway) await this.waitFor(contracts.health('auth'), {});
    if (screening) {
      await this.waitFor(
        contracts.screening.screen,
        { clientId: 'probe', tier: 'large' as const, feeds: ['sanctions'], entity: { name: 'probe' } },
        120_000,
      );
    }
    if (gateway) {
      const httpPort = await freePort();
      this.gatewayUrl = `http://127.0.0.1:${httpPort}`;
      this.spawn(
        join(SERVICES_DIR, 'gateway', 'dist', 'src', 'main.js'),
        this.env('gateway', { PORT: String(httpPort), HOST: '127.0.0.1', BULK_WORKER: 'false', ...options.gatewayEnv }),
      );
      await eventually(
        () =>
          fetch(`${this.gatewayUrl}/health`).then(
            (r) => r.status,
            () => 0,
          ),
        (status) => status > 0,
        60_000,
      );
      // The gateway creates its streams on its first event; the audit consumers attach to them.
      await this.http('GET', '/api/v1/status', { headers: { 'x-api-key': '0'.repeat(64) } });
      await this.consumersAttached(['SECURITY', 'ADMIN_ACTIONS', ...(screening ? ['SCREENINGS'] : [])]);
    }
  }

  async migrate(owner: Owner) {
    const result = await runNode(join(SERVICES_DIR, owner, 'dist', 'src', 'migrate.js'), this.env(owner));
    if (result.code !== 0) throw new Error(`${owner} migrations failed: ${result.stdout}${result.stderr}`);
  }

  startAudit(extra: Record<string, string> = {}): ChildProcess {
    this.audit = this.spawn(join(AUDIT_DIR, 'dist', 'src', 'main.js'), this.auditEnv(extra));
    return this.audit;
  }

  /** kill -9: no shutdown hook runs, whatever it held unacknowledged is redelivered later. */
  killAudit(): Promise<void> {
    const child = this.audit;
    this.audit = undefined;
    return new Promise((resolve) => {
      if (!child || child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  async consumersAttached(streams: string[]) {
    const durable: Record<string, string> = {
      SECURITY: 'audit-security',
      ADMIN_ACTIONS: 'audit-admin-actions',
      SCREENINGS: 'audit-screenings',
    };
    const jsm = await jetstreamManager(this.nc!);
    await eventually(
      async () => {
        for (const stream of streams) {
          const ok = await jsm.consumers.info(stream, durable[stream]!).then(
            (info) => info.num_waiting > 0 || info.delivered.consumer_seq >= 0,
            () => false,
          );
          if (!ok) return false;
        }
        return true;
      },
      (ok) => ok,
      30_000,
    );
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

  async request<C extends Contract>(contract: C, payload: RequestOf<C>, timeout = 10_000): Promise<ReplyOf<C>> {
    const subject = contract.subject;
    const reply = await this.nc!.request(subject, JSON.stringify({ data: payload, id: String(Math.random()) }), {
      timeout,
    });
    const body = reply.json<{ response?: unknown; err?: unknown }>();
    if (body.err) throw new Error(`${subject}: ${JSON.stringify(body.err)}`);
    return contract.reply.parse(body.response) as ReplyOf<C>;
  }

  private async waitFor<C extends Contract>(contract: C, payload: RequestOf<C>, timeoutMs = 60_000) {
    const started = Date.now();
    for (;;) {
      try {
        await this.request(contract, payload, 2_000);
        return;
      } catch (error) {
        if (Date.now() - started > timeoutMs) throw new Error(`${contract.subject} did not answer: ${String(error)}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  async http(
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: unknown } = {},
  ): Promise<Reply> {
    const res = await fetch(`${this.gatewayUrl}${path}`, {
      method,
      headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // CSV and other text answers
    }
    return { status: res.status, headers: res.headers, text, body };
  }

  /** The allow-listed admin, signed up with an invitation code and signed in: its session token. */
  async admin(): Promise<{ token: string; id: string; email: string }> {
    const code = randomBytes(6).toString('hex').toUpperCase();
    await this.sql(
      'auth',
      `INSERT INTO invitation_codes (code_hash, expires_at) VALUES ($1, now() + interval '1 hour')`,
      [createHash('sha256').update(code).digest('hex')],
    );
    const form = {
      full_name: 'Audit Admin',
      email: this.adminEmail,
      password: PASSWORD,
      confirm_password: PASSWORD,
      accepted_terms: true,
      invitation_code: code,
    };
    const signup = await this.http('POST', '/auth/v1/signup', { body: form });
    if (signup.status >= 300) throw new Error(`admin signup: ${signup.status} ${signup.text}`);
    const session = await this.request(contracts.auth.token, {
      grant_type: 'password',
      email: this.adminEmail,
      password: PASSWORD,
    });
    return { token: session.access_token, id: session.user.id, email: this.adminEmail };
  }

  /** A confirmed user attached to a new client, signed in: the client, its key and the session token. */
  async member(tier: Tier, email: string, clientName = `Bank ${randomBytes(3).toString('hex')}`) {
    const signup = await this.http('POST', '/auth/v1/signup', {
      body: { full_name: 'Analyst', email, password: PASSWORD, confirm_password: PASSWORD, accepted_terms: true },
    });
    if (signup.status >= 300) throw new Error(`signup: ${signup.status} ${signup.text}`);
    // The confirmation as auth's mailbox transport stored it: the dev mailbox route is for administrators.
    const { value: mail } = await eventually(
      () =>
        this.sql('auth', `SELECT text_body FROM mailbox WHERE recipient = $1 ORDER BY created_at DESC LIMIT 1`, [
          email.toLowerCase(),
        ]),
      (rows) => rows.length > 0,
      10_000,
    );
    const confirmToken = /token=([A-Za-z0-9_-]+)/.exec(mail[0].text_body as string)![1];
    const verified = await this.http('POST', '/auth/v1/verify', { body: { type: 'signup', token: confirmToken } });
    const reply = await this.request(contracts.clients.provision, {
      clientName,
      contactEmail: email,
      tier,
      userId: verified.body.user.id,
    });
    const signedIn = await this.http('POST', '/auth/v1/token?grant_type=password', {
      body: { email, password: PASSWORD },
    });
    return {
      id: reply.client.id,
      key: reply.api_key!,
      name: clientName,
      token: signedIn.body.access_token as string,
      userId: verified.body.user.id as string,
    };
  }

  pool(): pg.Pool {
    this.db ??= new pg.Pool({ connectionString: DATABASE_URL, max: 3 });
    return this.db;
  }

  /** SQL as the database superuser in one of this stack's schemas. */
  // Rows are whatever the test selected; it asserts on them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async sql(owner: Owner, text: string, params: unknown[] = []): Promise<any[]> {
    const client = await this.pool().connect();
    try {
      await client.query(`SET search_path = "${this.schema(owner)}"`);
      return (await client.query(text, params)).rows;
    } finally {
      await client.query('RESET search_path').catch(() => undefined);
      client.release();
    }
  }

  async stop() {
    await Promise.all(
      [...this.children].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    await this.nc?.close().catch(() => undefined);
    this.nats?.kill('SIGTERM');
    for (const owner of ['auth', 'gateway', 'audit', 'screening'] as const)
      await this.pool()
        .query(`DROP SCHEMA IF EXISTS "${this.schema(owner)}" CASCADE`)
        .catch(() => undefined);
    await this.db?.end();
    if (this.natsDir) rmSync(this.natsDir, { recursive: true, force: true });
  }
}

async function connectWithRetry(url: string): Promise<NatsConnection> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await connect({ servers: url });
    } catch (error) {
      if (attempt > 50) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
