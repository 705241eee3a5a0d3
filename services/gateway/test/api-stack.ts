// The real stack for the public-API tests: a private nats-server with JetStream (so
// streams, consumers and other tests' traffic cannot interfere), the built auth and
// screening services in throwaway schemas, and the gateway in-process or as child
// processes (for a second replica, or a bulk worker to kill -9).
import type { INestApplication } from '@nestjs/common';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { parseConfig, runMigrations } from '@vigil/platform';
import { FEEDS, contracts, type Contract, type ReplyOf, type RequestOf, type Tier } from '@vigil/proto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrations } from '../migrations/index.js';
import { envSchema, type GatewayConfig } from '../src/env.js';
import { createGatewayApp } from '../src/http/create-app.js';
import request from 'supertest';
import { SERVICES_DIR, eventually, mailTextTo, runNode, testEnv } from './stack.js';
import { freePort, natsServerBinary } from '@vigil/platform/testing';

const natsBinary = () => natsServerBinary() ?? 'nats-server';

type Backend = 'auth' | 'screening' | 'monitoring' | 'audit';

export class ApiStack {
  readonly prefix = `t${Math.random().toString(16).slice(2, 10)}`;
  natsUrl = '';
  private natsDir = '';
  private nats?: ChildProcess;
  private readonly children = new Set<ChildProcess>();
  private nc?: NatsConnection;
  readonly apps: INestApplication[] = [];
  /** Extra variables per backend (a probe port, a log level). */
  readonly backendOverrides: Partial<Record<Backend, Record<string, string>>> = {};
  /** Keep each backend's stdout (its log lines) in `output` instead of dropping it. */
  captureOutput = false;
  readonly output = new Map<string, string[]>();

  schema(owner: Backend | 'gateway') {
    return `${this.prefix}_${owner}`;
  }

  backendEnv(service: Backend): Record<string, string> {
    return {
      ...testEnv,
      NATS_URL: this.natsUrl,
      DB_SCHEMA: this.schema(service),
      LOG_LEVEL: 'warn',
      ARGON2_MEMORY_KIB: '1024',
      ARGON2_TIME_COST: '1',
      WEB_URL: 'http://web.test',
      ...this.backendOverrides[service],
    };
  }

  gatewayEnv(overrides: Record<string, string> = {}): Record<string, string> {
    return {
      ...testEnv,
      NATS_URL: this.natsUrl,
      DB_SCHEMA: this.schema('gateway'),
      LOG_LEVEL: 'warn',
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      MIGRATE_ON_BOOT: 'false',
      ...overrides,
    };
  }

  async start(backends: Backend[] = ['auth', 'screening']) {
    const port = await freePort();
    this.natsDir = mkdtempSync(join(tmpdir(), 'vigil-nats-'));
    this.nats = spawn(natsBinary(), ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', this.natsDir], {
      stdio: 'ignore',
    });
    this.natsUrl = `nats://127.0.0.1:${port}`;
    await runMigrations({ databaseUrl: testEnv.DATABASE_URL, schema: this.schema('gateway'), migrations });
    await Promise.all(
      backends.map(async (service) => {
        const migrated = await runNode(
          join(SERVICES_DIR, service, 'dist', 'src', 'migrate.js'),
          this.backendEnv(service),
        );
        if (migrated.code !== 0) throw new Error(`${service} migrations failed: ${migrated.output}`);
        this.spawnService(service);
      }),
    );
    this.nc = await connectWithRetry(this.natsUrl);
    await this.waitFor(contracts.health('auth'), {}, backends.includes('auth'));
    await this.waitFor(contracts.health('monitoring'), {}, backends.includes('monitoring'));
    await this.waitFor(contracts.health('audit'), {}, backends.includes('audit'));
    // Answering is not enough: wait until the index is loaded and a screening succeeds.
    await this.waitFor(
      contracts.screening.screen,
      { clientId: 'probe', tier: 'large' as const, feeds: [...FEEDS], entity: { name: 'probe' } },
      backends.includes('screening'),
    );
  }

  readonly services = new Map<Backend, ChildProcess>();

  spawnService(service: Backend): ChildProcess {
    const child = this.spawn(join(SERVICES_DIR, service, 'dist', 'src', 'main.js'), this.backendEnv(service), service);
    this.services.set(service, child);
    return child;
  }

  /** A bulk-job worker as its own process (to be killed). */
  spawnBulkWorker(env: Record<string, string> = {}): ChildProcess {
    return this.spawn(join(SERVICES_DIR, 'gateway', 'dist', 'src', 'bulk-worker.js'), this.gatewayEnv(env));
  }

  spawn(script: string, env: Record<string, string>, name = script): ChildProcess {
    const child = spawn(process.execPath, [script], {
      env: { ...process.env, ...env, NODE_OPTIONS: '' },
      stdio: ['ignore', this.captureOutput ? 'pipe' : 'ignore', 'inherit'],
    });
    if (this.captureOutput) {
      const lines: string[] = [];
      this.output.set(name, lines);
      let partial = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        const parts = (partial + chunk.toString('utf8')).split('\n');
        partial = parts.pop()!;
        lines.push(...parts);
      });
    }
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    return child;
  }

  async gateway(overrides: Record<string, string> = {}): Promise<INestApplication> {
    const config: Readonly<GatewayConfig> = parseConfig(envSchema, this.gatewayEnv(overrides));
    const app = await createGatewayApp(config);
    await app.init();
    this.apps.push(app);
    return app;
  }

  async request<C extends Contract>(contract: C, payload: RequestOf<C>, timeout = 10_000): Promise<ReplyOf<C>> {
    const subject = contract.subject;
    const reply = await this.nc!.request(subject, JSON.stringify({ data: payload, id: String(Math.random()) }), {
      timeout,
    });
    const body = reply.json<{ response?: unknown; err?: unknown; isDisposed?: boolean }>();
    if (body.err) throw new Error(`${subject}: ${JSON.stringify(body.err)}`);
    return contract.reply.parse(body.response) as ReplyOf<C>;
  }

  /** A client with its first API key, created the way billing does after a checkout. */
  async client(tier: Tier, name = `Bank ${Math.random().toString(16).slice(2, 8)}`, userId?: string) {
    const reply = await this.request(contracts.clients.provision, {
      clientName: name,
      contactEmail: `${name.replace(/\W+/g, '-').toLowerCase()}@example.com`,
      tier,
      ...(userId ? { userId } : {}),
    });
    return { id: reply.client.id, key: reply.api_key!, name };
  }

  /** A confirmed user attached to a new client, signed in through the gateway: the client, its key and the session token. */
  async member(app: INestApplication, tier: 'starter' | 'large', email: string, password: string) {
    const http = () => request(app.getHttpServer());
    await http()
      .post('/auth/v1/signup')
      .send({ full_name: 'Analyst', email, password, confirm_password: password, accepted_terms: true });
    const { value: mail } = await eventually(
      () => mailTextTo(this.schema('auth'), email),
      (text) => text !== undefined,
      10_000,
    );
    const confirmToken = /token=([A-Za-z0-9_-]+)/.exec(mail!)![1];
    const session = (await http().post('/auth/v1/verify').send({ type: 'signup', token: confirmToken })).body;
    const client = await this.client(tier, undefined, session.user.id);
    const signedIn = await http().post('/auth/v1/token?grant_type=password').send({ email, password });
    expect(signedIn.status).toBe(200);
    return { ...client, token: signedIn.body.access_token as string };
  }

  async setSubscription(
    clientId: string,
    change: Omit<RequestOf<typeof contracts.clients.updateSubscription>, 'clientId'>,
  ) {
    await this.request(contracts.clients.updateSubscription, { clientId, ...change });
  }

  private async waitFor<C extends Contract>(contract: C, payload: RequestOf<C>, wanted: boolean) {
    if (!wanted) return;
    const started = Date.now();
    for (;;) {
      try {
        await this.request(contract, payload, 2_000);
        return;
      } catch (error) {
        if (Date.now() - started > 60_000) throw new Error(`${contract.subject} did not answer: ${String(error)}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  async stop() {
    for (const app of this.apps) await app.close().catch(() => undefined);
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
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: testEnv.DATABASE_URL });
    await client.connect();
    try {
      for (const owner of ['auth', 'screening', 'monitoring', 'audit', 'gateway'] as const)
        await client.query(`DROP SCHEMA IF EXISTS "${this.schema(owner)}" CASCADE`);
    } finally {
      await client.end();
    }
    if (this.natsDir) rmSync(this.natsDir, { recursive: true, force: true });
  }

  /** Runs SQL in one of this stack's schemas. */
  async sql(owner: Backend | 'gateway', text: string, params: unknown[] = []) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({
      connectionString: testEnv.DATABASE_URL,
      options: `-c search_path="${this.schema(owner)}"`,
    });
    await client.connect();
    try {
      return (await client.query(text, params)).rows;
    } finally {
      await client.end();
    }
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

export { freePort };
