// Integration test harness: a private nats-server with JetStream (so no other screening
// instance on the machine can answer our requests), a throwaway Postgres schema per test
// file, and the built service run as child processes, as in production.
import { jetstreamManager, DeliverPolicy, jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort, natsServerBinary } from '@vigil/platform/testing';
import type { Contract, ReplyOf, RequestOf } from '@vigil/proto';

export const SERVICE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vigil_test';

export type Reply<T> =
  | { ok: true; value: T }
  | { ok: false; error: { code: string; message: string; errors?: unknown[]; retryAfterSeconds?: number } };

export class Harness {
  readonly schema = `scr_${randomBytes(4).toString('hex')}`;
  natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  nc!: NatsConnection;
  db!: pg.Client;
  private nats: ChildProcess | undefined;
  private natsDir: string | undefined;
  private readonly services = new Set<ServiceProcess>();
  private readonly dirs: string[] = [];

  async start(): Promise<void> {
    const binary = natsServerBinary();
    if (binary) {
      const port = await freePort();
      this.natsDir = await mkdtemp(join(tmpdir(), 'vigil-nats-'));
      this.nats = spawn(binary, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', this.natsDir], {
        stdio: 'ignore',
      });
      this.natsUrl = `nats://127.0.0.1:${port}`;
    } else {
      process.stdout.write(
        `no nats-server binary: using the shared NATS at ${this.natsUrl}; another screening instance on it could answer our requests\n`,
      );
    }
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
    const migrate = await runNode(join(SERVICE_DIR, 'dist', 'src', 'migrate.js'), this.env());
    if (migrate.code !== 0) throw new Error(`migrations failed: ${migrate.output}`);
  }

  async tempDir(prefix = 'vigil-lists-'): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    return { DATABASE_URL, NATS_URL: this.natsUrl, DB_SCHEMA: this.schema, LOG_LEVEL: 'info', ...extra };
  }

  startService(env: Record<string, string>): ServiceProcess {
    const service = new ServiceProcess(this.env(env));
    this.services.add(service);
    return service;
  }

  async stopService(service: ServiceProcess): Promise<void> {
    await service.stop();
    this.services.delete(service);
  }

  /** Waits until some instance answers on the service's health subject. */
  async waitForResponders(timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        await this.nc.request(
          'health.v1.screening',
          JSON.stringify({ pattern: 'health.v1.screening', data: {}, id: 'h' }),
          { timeout: 2000 },
        );
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  /** A Nest request/reply over NATS, unwrapped: the value, or the RpcError the service answered. */
  async request<C extends Contract>(contract: C, data: RequestOf<C>, timeoutMs?: number): Promise<Reply<ReplyOf<C>>>;
  /** Outside any contract: what a test sends to see the handler refuse it. */
  async request<T = unknown>(subject: string, data: unknown, timeoutMs?: number): Promise<Reply<T>>;
  async request<T>(target: Contract | string, data: unknown, timeoutMs = 10_000): Promise<Reply<T>> {
    const subject = typeof target === 'string' ? target : target.subject;
    const message = await this.nc.request(
      subject,
      JSON.stringify({ pattern: subject, data, id: randomBytes(8).toString('hex') }),
      { timeout: timeoutMs },
    );
    const body = message.json<{ response?: T; err?: Reply<T> extends { ok: false; error: infer E } ? E : never }>();
    if (body.err !== undefined && body.err !== null) return { ok: false, error: body.err as never };
    return { ok: true, value: body.response as T };
  }

  async value<T>(subject: string, data: unknown, timeoutMs?: number): Promise<T> {
    const reply: Reply<T> = await this.request(subject, data, timeoutMs);
    if (!reply.ok) throw new Error(`${subject} answered ${reply.error.code}: ${reply.error.message}`);
    return reply.value;
  }

  /** Every message so far on a JetStream subject, parsed. */
  async streamMessages<T>(stream: string, subject: string): Promise<T[]> {
    const js = jetstream(this.nc);
    const jsm = await jetstreamManager(this.nc);
    const info = await jsm.streams.info(stream).catch(() => null);
    if (!info) return [];
    const out: T[] = [];
    const consumer = await js.consumers.get(stream, { filter_subjects: subject, deliver_policy: DeliverPolicy.All });
    const pending = (await consumer.info()).num_pending;
    if (pending === 0) return out;
    const messages = await consumer.fetch({ max_messages: pending, expires: 2000 });
    for await (const m of messages) {
      out.push(m.json<T>());
      if (out.length >= pending) break;
    }
    return out;
  }

  query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    return this.db.query<R>(sql.replaceAll('$schema', `"${this.schema}"`), params).then((r) => r.rows);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.services].map((s) => s.stop()));
    await this.nc?.close();
    if (this.db) {
      await this.db.query(`DROP SCHEMA IF EXISTS "${this.schema}" CASCADE`);
      await this.db.end();
    }
    if (this.nats && this.nats.exitCode === null) {
      const exited = new Promise((r) => this.nats!.once('exit', r));
      this.nats.kill('SIGTERM');
      await exited;
    }
    for (const dir of [...this.dirs, ...(this.natsDir ? [this.natsDir] : [])])
      await rm(dir, { recursive: true, force: true });
  }
}

export class ServiceProcess {
  readonly child: ChildProcess;
  output = '';

  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, [join(SERVICE_DIR, 'dist', 'src', 'main.js')], {
      env: { ...process.env, ...env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (d) => (this.output += d));
    this.child.stderr!.on('data', (d) => (this.output += d));
  }

  /** Resolves when the log has a line matching `pattern` (checked against what was already logged too). */
  async waitForLog(pattern: RegExp, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.output)) {
      if (this.child.exitCode !== null)
        throw new Error(`service exited (${this.child.exitCode}) before logging ${pattern}:\n${this.output}`);
      if (Date.now() > deadline)
        throw new Error(`no log line matching ${pattern} in ${timeoutMs} ms:\n${this.output.slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) return resolve();
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 8000);
      this.child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      this.child.kill(signal);
    });
  }
}

export function runNode(script: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { env: { ...process.env, ...env, NODE_OPTIONS: '' } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

export async function eventually<T>(
  fn: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await fn();
  while (!accept(value)) {
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(value).slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 100));
    value = await fn();
  }
  return value;
}
