// Runs the built auth service behind a private nats-server and a throwaway schema,
// so the gateway's auth routes are tested against the real service without any
// other process on the shared broker answering for it.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { SERVICES_DIR, runNode, testEnv } from './stack.js';
import { freePort, natsServerBinary } from '@vigil/platform/testing';

export class PrivateAuthService {
  readonly schema = `t${Math.random().toString(16).slice(2, 10)}_auth`;
  natsUrl = testEnv.NATS_URL;
  private nats?: ChildProcess;
  private auth?: ChildProcess;

  async start(env: Record<string, string> = {}): Promise<void> {
    const binary = natsServerBinary();
    if (binary) {
      const port = await freePort();
      this.nats = spawn(binary, ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
      this.natsUrl = `nats://127.0.0.1:${port}`;
    }
    const serviceEnv = {
      ...testEnv,
      NATS_URL: this.natsUrl,
      DB_SCHEMA: this.schema,
      LOG_LEVEL: 'warn',
      ARGON2_MEMORY_KIB: '1024',
      ARGON2_TIME_COST: '1',
      WEB_URL: 'http://web.test',
      ...env,
    };
    const migrated = await runNode(join(SERVICES_DIR, 'auth', 'dist', 'src', 'migrate.js'), serviceEnv);
    if (migrated.code !== 0) throw new Error(`auth migrations failed: ${migrated.output}`);
    this.auth = spawn(process.execPath, [join(SERVICES_DIR, 'auth', 'dist', 'src', 'main.js')], {
      env: { ...process.env, ...serviceEnv, NODE_OPTIONS: '' },
      stdio: 'ignore',
    });
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      if (!this.auth || this.auth.exitCode !== null) return resolve();
      this.auth.once('exit', () => resolve());
      this.auth.kill('SIGTERM');
    });
    this.nats?.kill('SIGTERM');
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: testEnv.DATABASE_URL });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS "${this.schema}" CASCADE`);
    } finally {
      await client.end();
    }
  }

  /** Runs SQL in the auth schema (test set-up only: the bootstrap invitation). */
  async sql(text: string, params: unknown[] = []) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({
      connectionString: testEnv.DATABASE_URL,
      options: `-c search_path="${this.schema}"`,
    });
    await client.connect();
    try {
      return (await client.query(text, params)).rows;
    } finally {
      await client.end();
    }
  }
}
