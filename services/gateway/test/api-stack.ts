// The real stack for the public-API tests, on the shared harness: a private nats-server with
// JetStream (so streams, consumers and other tests' traffic cannot interfere), the built auth
// and screening services in throwaway schemas, and the gateway in-process or as child
// processes (for a second replica, or a bulk worker to kill -9).
import type { INestApplication } from '@nestjs/common';
import { parseConfig, runMigrations } from '@vigil/platform';
import { TestStack, freePort } from '@vigil/platform/testing';
import { FEEDS, contracts, type RequestOf, type Tier } from '@vigil/proto';
import type { ChildProcess } from 'node:child_process';
import { migrations } from '../migrations/index.js';
import { envSchema, type GatewayConfig } from '../src/env.js';
import { createGatewayApp } from '../src/http/create-app.js';
import request from 'supertest';
import { SERVICES_DIR, eventually, mailTextTo, testEnv } from './stack.js';

type Backend = 'auth' | 'screening' | 'monitoring' | 'audit';

export class ApiStack extends TestStack {
  readonly apps: INestApplication[] = [];
  /** Extra variables per backend (a probe port, a log level). */
  readonly backendOverrides: Partial<Record<Backend, Record<string, string>>> = {};
  /** The running backend processes (to be killed). */
  readonly services = new Map<Backend, ChildProcess>();

  constructor() {
    super(SERVICES_DIR, { env: { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1', WEB_URL: 'http://web.test' } });
  }

  gatewayEnv(overrides: Record<string, string> = {}): Record<string, string> {
    return this.env('gateway', {
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      MIGRATE_ON_BOOT: 'false',
      ...overrides,
    });
  }

  async start(backends: Backend[] = ['auth', 'screening']) {
    await this.startNats();
    await runMigrations({ databaseUrl: testEnv.DATABASE_URL, schema: this.schema('gateway'), migrations });
    await Promise.all(
      backends.map(async (service) => {
        await this.migrate(service, this.backendOverrides[service]);
        this.spawnService(service);
      }),
    );
    for (const service of ['auth', 'monitoring', 'audit'] as const)
      if (backends.includes(service)) await this.waitForHealth(service);
    // Answering is not enough: wait until the index is loaded and a screening succeeds.
    if (backends.includes('screening')) {
      const probe = { clientId: 'probe', tier: 'large' as const, feeds: [...FEEDS], entity: { name: 'probe' } };
      await this.waitFor(contracts.screening.screen, probe, { process: this.process('screening') });
    }
  }

  spawnService(service: Backend): ChildProcess {
    const { child } = this.spawn(service, this.backendOverrides[service]);
    this.services.set(service, child);
    return child;
  }

  /** A bulk-job worker as its own process (to be killed). */
  spawnBulkWorker(env: Record<string, string> = {}): ChildProcess {
    return this.spawn(
      'gateway',
      {},
      { name: 'bulk-worker', script: this.script('gateway', 'bulk-worker.js'), env: this.gatewayEnv(env) },
    ).child;
  }

  /** A gateway replica as its own process (to be stopped or killed), listening on `port`. */
  spawnGateway(port: number, env: Record<string, string> = {}): ChildProcess {
    const replicaEnv = this.gatewayEnv({ PORT: String(port), HOST: '127.0.0.1', ...env });
    return this.spawn('gateway', {}, { name: `gateway-${port}`, env: replicaEnv }).child;
  }

  /** A gateway child process on a free port, once it answers HTTP: a replica beside the others. */
  async gatewayReplica(env: Record<string, string> = {}): Promise<{ url: string; child: ChildProcess }> {
    const port = await freePort();
    const child = this.spawnGateway(port, env);
    const url = `http://127.0.0.1:${port}`;
    await eventually(
      () =>
        fetch(`${url}/api/v1/plans`).then(
          (r) => r.status,
          () => 0,
        ),
      (status) => status === 200,
      30_000,
    );
    return { url, child };
  }

  async gateway(
    overrides: Record<string, string> = {},
    options: Parameters<typeof createGatewayApp>[1] = {},
  ): Promise<INestApplication> {
    const config: Readonly<GatewayConfig> = parseConfig(envSchema, this.gatewayEnv(overrides));
    const app = await createGatewayApp(config, options);
    await app.init();
    this.apps.push(app);
    return app;
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

  override async stop() {
    for (const app of this.apps) await app.close().catch(() => undefined);
    await super.stop();
  }
}

export { freePort };
