// A service or migration started before Postgres (compose or k8s start order, a failover, npm start
// racing it) waits for it: alive and not ready meanwhile, ready once Postgres answers, and stopped
// with a message once DATABASE_CONNECT_TIMEOUT_SECONDS pass. Audit stands for every service: the
// waiting is the platform bootstrap's, which all of them boot through.
import { jest } from '@jest/globals';
import { freePort } from '@vigil/platform/testing';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { AuditStack, DATABASE_URL, eventually, runNode } from './harness.js';

jest.setTimeout(120_000);

/**
 * A loopback port where nothing listens (connections are refused) until open(), which forwards
 * every connection to the real Postgres: the database "coming up" under a running process.
 */
class PostgresDoor {
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  private constructor(readonly port: number) {}

  static async closed(): Promise<PostgresDoor> {
    return new PostgresDoor(await freePort());
  }

  /** DATABASE_URL through the door: same user, password and database. */
  url(password?: string): string {
    const url = new URL(DATABASE_URL);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    if (password !== undefined) url.password = password;
    return url.toString();
  }

  open(): Promise<void> {
    const upstream = new URL(DATABASE_URL);
    this.server = createServer((client) => {
      const server = connect(Number(upstream.port || 5432), upstream.hostname);
      for (const socket of [client, server]) {
        this.sockets.add(socket);
        socket.once('close', () => this.sockets.delete(socket));
        socket.on('error', () => (client.destroy(), server.destroy()));
      }
      client.pipe(server).pipe(client);
    });
    return new Promise((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => (this.server ? this.server.close(resolve) : resolve(undefined)));
    this.server = undefined;
  }
}

const probe = (url: string) =>
  fetch(url).then(
    (res) => res.status,
    () => 0,
  );

let stack: AuditStack;
let door: PostgresDoor;

beforeAll(async () => {
  stack = new AuditStack();
  await stack.startNats();
});

beforeEach(async () => {
  door = await PostgresDoor.closed();
});

afterEach(() => door.close());

afterAll(() => stack?.stop());

describe('started before Postgres', () => {
  it('migrate.js waits for it, saying why once per attempt, then migrates', async () => {
    const migration = stack.spawn(
      'audit',
      {},
      { name: 'audit-migrate', script: stack.script('audit', 'migrate.js'), env: stack.auditEnv({ DATABASE_URL: door.url() }) },
    );
    const exited = new Promise<number | null>((resolve) => migration.child.once('exit', resolve));
    await migration.waitForLog(/not reachable yet.*attempt 2/);
    await door.open();
    expect(await exited).toBe(0);
    expect(migration.stdout).toContain(`schema "${stack.schema('audit')}"`);
    const waits = migration.output.split('\n').filter((line) => line.includes('not reachable yet'));
    expect(waits.length).toBeGreaterThanOrEqual(2);
    expect(waits[0]).toContain('ECONNREFUSED');
    expect(migration.output).not.toMatch(/at .*\.js:\d+/);
  });

  it('the service is alive and not ready while it waits, and ready once Postgres answers', async () => {
    await stack.migrate('audit');
    const healthPort = await freePort();
    const service = stack.spawn(
      'audit',
      {},
      { env: stack.auditEnv({ DATABASE_URL: door.url(), HEALTH_PORT: String(healthPort) }) },
    );
    await service.waitForLog(/not reachable yet.*attempt 2/);
    const base = `http://127.0.0.1:${healthPort}`;
    expect({ live: await probe(`${base}/livez`), ready: await probe(`${base}/readyz`) }).toEqual({ live: 200, ready: 503 });
    await service.waitForLog(/attempt 3/);
    expect(service.running).toBe(true);
    expect(await probe(`${base}/readyz`)).toBe(503);

    await door.open();
    await eventually(() => probe(`${base}/readyz`), (status) => status === 200, 30_000);
    expect(await stack.waitForHealth('audit', service, 10_000)).toMatchObject({ status: 'up' });
    await stack.kill('audit', 'SIGTERM');
  });

  it.each(['main.js', 'migrate.js'])('%s exits 69 with the reason once the bound passes, no password, no stack', async (script) => {
    const password = 'door-password-never-logged';
    const started = Date.now();
    const result = await runNode(
      stack.script('audit', script),
      stack.auditEnv({ DATABASE_URL: door.url(password), DATABASE_CONNECT_TIMEOUT_SECONDS: '2' }),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(result.code).toBe(69);
    expect(result.stderr).toContain(
      `[audit] Postgres at postgres://${new URL(DATABASE_URL).username}@127.0.0.1:${door.port}/`,
    );
    expect(result.stderr).toMatch(/not reachable after 2 s \(\d+ attempts; last: connect ECONNREFUSED [^)]+\); giving up/);
    expect(result.output.match(/not reachable yet/g)?.length).toBeGreaterThanOrEqual(2);
    expect(result.output).not.toContain(password);
    expect(result.output).not.toMatch(/at .*\.js:\d+/);
  });
});
