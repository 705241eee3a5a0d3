// Integration test harness for screening, on the shared harness: a private nats-server (so no
// other screening instance on the machine can answer our requests), a throwaway Postgres
// schema per test file, and the built service run as child processes, as in production.
import { jetstreamManager, DeliverPolicy, jetstream } from '@nats-io/jetstream';
import { DomainError } from '@vigil/platform';
import { TEST_DATABASE_URL, TestStack, eventually, type ServiceProcess } from '@vigil/platform/testing';
import type { Contract, ReplyOf, RequestOf } from '@vigil/proto';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

const SERVICES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DATABASE_URL = TEST_DATABASE_URL;
export { eventually, type ServiceProcess };

export type Reply<T> =
  | { ok: true; value: T }
  | { ok: false; error: { code: string; message: string; errors?: unknown[]; retryAfterSeconds?: number } };

export class Harness {
  // Info logs: tests wait for the service's log lines.
  private readonly stack = new TestStack(SERVICES_DIR, {
    prefix: `scr_${randomBytes(4).toString('hex')}`,
    env: { LOG_LEVEL: 'info' },
  });
  readonly schema = this.stack.schema('screening');
  private started = 0;

  get natsUrl(): string {
    return this.stack.natsUrl;
  }

  get nc() {
    return this.stack.nc;
  }

  async start(): Promise<void> {
    await this.stack.startNats();
    await this.stack.migrate('screening');
  }

  tempDir(prefix = 'vigil-lists-'): Promise<string> {
    return this.stack.tempDir(prefix);
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    return this.stack.env('screening', extra);
  }

  startService(env: Record<string, string>): ServiceProcess {
    return this.stack.spawn('screening', env, { name: `screening-${++this.started}` });
  }

  stopService(service: ServiceProcess): Promise<void> {
    return service.stop();
  }

  /** Waits until some instance answers on the service's health subject. */
  async waitForResponders(timeoutMs = 20_000): Promise<void> {
    await this.stack.waitForHealth('screening', undefined, timeoutMs);
  }

  /** A request over NATS, unwrapped: the value, or the RpcError the service answered. */
  async request<C extends Contract>(contract: C, data: RequestOf<C>, timeoutMs?: number): Promise<Reply<ReplyOf<C>>>;
  /** Outside any contract: what a test sends to see the handler refuse it. */
  async request(subject: string, data: unknown, timeoutMs?: number): Promise<Reply<unknown>>;
  async request(target: Contract | string, data: unknown, timeoutMs = 10_000): Promise<Reply<unknown>> {
    try {
      const value =
        typeof target === 'string'
          ? await this.stack.requestUnchecked(target, data, timeoutMs)
          : await this.stack.request(target, data as never, timeoutMs);
      return { ok: true, value };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const { code, message, errors, retryAfterSeconds } = error;
      return {
        ok: false,
        error: {
          code,
          message,
          ...(errors ? { errors } : {}),
          ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
        },
      };
    }
  }

  /** The reply's value; a failure throws with the remote code. */
  async value<C extends Contract>(contract: C, data: RequestOf<C>, timeoutMs?: number): Promise<ReplyOf<C>>;
  /** By subject, the reply type named by the test (the full screening answers, not the contract's floor). */
  async value<T>(subject: string, data: unknown, timeoutMs?: number): Promise<T>;
  async value(target: Contract | string, data: unknown, timeoutMs?: number): Promise<unknown> {
    const reply = await (typeof target === 'string'
      ? this.request(target, data, timeoutMs)
      : this.request(target, data as never, timeoutMs));
    if (!reply.ok)
      throw new Error(
        `${typeof target === 'string' ? target : target.subject} answered ${reply.error.code}: ${reply.error.message}`,
      );
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
    return this.stack
      .pool()
      .query<R>(sql.replaceAll('$schema', `"${this.schema}"`), params)
      .then((r) => r.rows);
  }

  stop(): Promise<void> {
    return this.stack.stop();
  }
}
