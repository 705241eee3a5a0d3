// Test helper: runs the non-HTTP services as real child processes, each in its own
// throwaway Postgres schema, so gateway tests exercise real NATS and Postgres.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SERVICES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BACKEND_SERVICES = ['auth', 'screening', 'monitoring', 'billing', 'audit'] as const;
export type BackendService = (typeof BACKEND_SERVICES)[number];

export const testEnv = {
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vigil_test',
  NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
};

export function runNode(script: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { env: { ...process.env, ...env, NODE_OPTIONS: '' } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

export class ServiceProcesses {
  readonly prefix = `t${randomBytes(4).toString('hex')}`;
  private readonly running = new Map<BackendService, ChildProcess>();

  schema(service: BackendService) {
    return `${this.prefix}_${service}`;
  }

  env(service: BackendService): Record<string, string> {
    return { ...testEnv, DB_SCHEMA: this.schema(service), LOG_LEVEL: 'warn' };
  }

  async migrate(service: BackendService) {
    const result = await runNode(join(SERVICES_DIR, service, 'dist', 'src', 'migrate.js'), this.env(service));
    if (result.code !== 0) throw new Error(`${service} migrations failed: ${result.output}`);
  }

  start(service: BackendService) {
    const child = spawn(process.execPath, [join(SERVICES_DIR, service, 'dist', 'src', 'main.js')], {
      env: { ...process.env, ...this.env(service), NODE_OPTIONS: '' },
      stdio: 'ignore',
    });
    this.running.set(service, child);
  }

  kill(service: BackendService, signal: NodeJS.Signals = 'SIGKILL') {
    const child = this.running.get(service);
    this.running.delete(service);
    return new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  async stopAll() {
    await Promise.all([...this.running.keys()].map((s) => this.kill(s, 'SIGTERM')));
  }

  async dropSchemas() {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: testEnv.DATABASE_URL });
    await client.connect();
    try {
      for (const service of BACKEND_SERVICES) await client.query(`DROP SCHEMA IF EXISTS "${this.schema(service)}" CASCADE`);
    } finally {
      await client.end();
    }
  }
}

/**
 * The newest mail to an address as auth's mailbox transport stored it, read from its table:
 * tests are the recipient here, and /auth/v1/dev/mailbox is for administrators of a development stack.
 */
export async function mailTextTo(authSchema: string, to: string): Promise<string | undefined> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: testEnv.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ text_body: string }>(
      `SELECT text_body FROM "${authSchema}".mailbox WHERE recipient = $1 ORDER BY created_at DESC, id LIMIT 1`,
      [to.toLowerCase()],
    );
    return rows[0]?.text_body;
  } finally {
    await client.end();
  }
}

export async function eventually<T>(fn: () => Promise<T>, accept: (value: T) => boolean, timeoutMs: number): Promise<{ value: T; elapsedMs: number }> {
  const started = Date.now();
  let value = await fn();
  while (!accept(value)) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
    value = await fn();
  }
  return { value, elapsedMs: Date.now() - started };
}
