// The one integration-test harness: every service's test/ starts its stack through it. A
// private nats-server (so no running stack or other test file answers our requests), one
// throwaway Postgres schema per owner, the services' own migrate.js, the built services as
// child processes (a test can kill -9 one), readiness, typed requests over the proto
// contracts, and a cleanup that leaves nothing behind. Not imported by services.
import { connect, type ConnectionOptions, type NatsConnection } from '@nats-io/transport-node';
import { SERVICE_NAMES, contracts, type Contract, type ReplyOf, type RequestOf, type ServiceName } from '@vigil/proto';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import pg from 'pg';
import { createBusKeys, natsServerConfig, publicKeysOf, type BusKeys } from './bus.js';
import { Nats, RpcClient, natsConnectionOptions } from './nats.js';

export const TEST_DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vigil_test';

/** A TCP port free on loopback right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The nats-server binary on the PATH or in the usual package locations, if any. */
export function natsServerBinary(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' }).stdout?.trim();
  return found || ['/usr/sbin/nats-server', '/usr/local/bin/nats-server', '/usr/bin/nats-server'].find(existsSync);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `fn` until `accept` holds: the value that passed and how long it took. */
export async function eventually<T>(
  fn: () => T | Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = 15_000,
  intervalMs = 100,
): Promise<{ value: T; elapsedMs: number }> {
  const started = Date.now();
  for (;;) {
    const value = await fn();
    if (accept(value)) return { value, elapsedMs: Date.now() - started };
    if (Date.now() - started > timeoutMs)
      throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(value)?.slice(0, 2000)}`);
    await sleep(intervalMs);
  }
}

/** Runs a node script to its end (a migration, a CLI): exit code and what it printed. */
export function runNode(
  script: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env, NODE_OPTIONS: '' } });
    let stdout = '';
    let stderr = '';
    let output = '';
    child.stdout.on('data', (d) => ((stdout += d), (output += d)));
    child.stderr.on('data', (d) => ((stderr += d), (output += d)));
    child.once('exit', (code) => resolve({ code, stdout, stderr, output }));
  });
}

/** Sends `signal` and resolves once the process has exited; SIGKILL after `graceMs`. */
function exited(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

/**
 * `store`: its JetStream directory, removed by stop() once the server has exited. `keys`: the
 * bus's users (a key per service and the unrestricted `harness`, whose connection `nc` is);
 * `options(identity)` connects as one of them, or as the harness by default.
 */
/** The code an authenticator app shows now for a base32 secret (auth's TOTP: SHA-1, 6 digits, 30 s). */
export function totpCode(secret: string, at = Date.now()): string {
  return new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({
    timestamp: at,
  });
}

/** A sender of auth's factor requests: over NATS in the auth and audit tests, over HTTP in others. */
export type FactorCalls = {
  enroll(accessToken: string): Promise<{ id: string; totp: { secret: string } }>;
  challenge(accessToken: string, factorId: string): Promise<{ id: string }>;
  verify(accessToken: string, factorId: string, challengeId: string, code: string): Promise<{ access_token: string }>;
};

/**
 * Enrols an authenticator for a signed-in user and verifies it (every admin route needs aal2):
 * the aal2 session auth answers, and the secret, for a later sign-in's code step.
 */
export async function enrolAuthenticator<S extends { access_token: string }>(
  calls: FactorCalls,
  accessToken: string,
): Promise<{ session: S; secret: string; factorId: string }> {
  const factor = await calls.enroll(accessToken);
  const challenge = await calls.challenge(accessToken, factor.id);
  const session = (await calls.verify(accessToken, factor.id, challenge.id, totpCode(factor.totp.secret))) as S;
  return { session, secret: factor.totp.secret, factorId: factor.id };
}

/** The factor calls over NATS, as the gateway would send them for a session token. */
export function natsFactorCalls(request: <T>(subject: string, payload: object) => Promise<T>): FactorCalls {
  return {
    enroll: (accessToken) => request(contracts.auth.enrollFactor.subject, { accessToken, factor_type: 'totp' }),
    challenge: (accessToken, factorId) =>
      request(contracts.auth.challengeFactor.subject, { accessToken, factor_id: factorId }),
    verify: (accessToken, factorId, challengeId, code) =>
      request(contracts.auth.verifyFactor.subject, {
        accessToken,
        factor_id: factorId,
        challenge_id: challengeId,
        code,
      }),
  };
}

export type PrivateNats = {
  url: string;
  store: string;
  nc: NatsConnection;
  keys: BusKeys;
  /** nats-server's process id (a benchmark reads its CPU time). */
  pid: number | undefined;
  options: (identity?: ServiceName | 'harness') => ConnectionOptions;
  stop: () => Promise<void>;
};

/**
 * A nats-server of the caller's own, JetStream on, its store in a temporary directory, with the
 * bus's authorization as every deployment has it (@vigil/platform/bus): a connection without a
 * key is refused, each service's key gets that service's permissions.
 */
export async function startNats(): Promise<PrivateNats> {
  const binary = natsServerBinary();
  if (!binary)
    throw new Error('no nats-server binary: integration tests start their own (apt-get install nats-server)');
  const port = await freePort();
  const store = await mkdtemp(join(tmpdir(), 'vigil-nats-'));
  const keys = createBusKeys({ harness: true });
  const configFile = join(store, 'nats-server.conf');
  await writeFile(
    configFile,
    natsServerConfig({ port, storeDir: store, publicKeys: publicKeysOf(keys), superusers: [keys.harness!.publicKey] }),
  );
  const server = spawn(binary, ['-c', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  server.stderr!.on('data', (d) => (log += d));
  const url = `nats://127.0.0.1:${port}`;
  const options = (identity: ServiceName | 'harness' = 'harness'): ConnectionOptions => ({
    ...natsConnectionOptions(url, `test-${identity}`, {
      seed: keys[identity]!.seed,
      ...(identity === 'harness' ? {} : { service: identity }),
    }),
    // A test wants to hear a refusal, not to wait on reconnects.
    maxReconnectAttempts: 0,
  });
  let nc: NatsConnection | undefined;
  for (let attempt = 0; !nc; attempt++) {
    nc = await connect({ ...options(), timeout: 500 }).catch(async (error: unknown) => {
      if (attempt > 50 || server.exitCode !== null)
        throw new Error(`nats-server did not start: ${String(error)}\n${log}`);
      await sleep(100);
      return undefined;
    });
  }
  const connection = nc;
  return {
    url,
    store,
    nc: connection,
    keys,
    pid: server.pid,
    options,
    stop: async () => {
      await connection.close().catch(() => undefined);
      // nats-server writes its JetStream store until it exits: remove the directory only after that.
      await exited(server, 'SIGTERM', 5_000);
      await rm(store, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

/** A built service (or any node script) as a child process, with everything it printed. */
export class ServiceProcess {
  readonly child: ChildProcess;
  stdout = '';
  /** stdout and stderr interleaved as they arrived. */
  output = '';

  constructor(
    readonly name: string,
    script: string,
    env: Record<string, string>,
  ) {
    this.child = spawn(process.execPath, [script], {
      env: { ...process.env, ...env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (d) => ((this.stdout += d), (this.output += d)));
    this.child.stderr!.on('data', (d) => (this.output += d));
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Complete stdout lines so far (the service's structured log lines). */
  stdoutLines(): string[] {
    return this.stdout.split('\n').slice(0, -1);
  }

  /** Resolves when the output has a line matching `pattern` (what was already printed counts). */
  async waitForLog(pattern: RegExp, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.output)) {
      if (!this.running)
        throw new Error(`${this.name} exited (${this.child.exitCode}) before logging ${pattern}:\n${this.output}`);
      if (Date.now() > deadline)
        throw new Error(`no log line matching ${pattern} in ${timeoutMs} ms:\n${this.output.slice(-3000)}`);
      await sleep(50);
    }
  }

  /** SIGTERM (a shutdown, SIGKILL after `graceMs`) or SIGKILL (a crash: no shutdown hook runs). */
  stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000): Promise<void> {
    return exited(this.child, signal, graceMs);
  }
}

const isService = (name: string): name is ServiceName => (SERVICE_NAMES as readonly string[]).includes(name);

type Spawned = { service: string; script: string; env: Record<string, string>; process: ServiceProcess };

/**
 * One test file's stack: its NATS, its schemas (`<prefix>_<owner>`), its processes. `env`
 * is added to every service's environment (test-speed settings such as cheap argon2).
 */
export class TestStack {
  readonly prefix: string;
  readonly databaseUrl: string;
  natsUrl = '';
  private nats?: PrivateNats;
  private adminPool?: pg.Pool;
  private rpcClient?: RpcClient;
  private readonly owners = new Set<string>();
  private readonly spawned = new Map<string, Spawned>();
  private readonly running = new Set<ServiceProcess>();
  private readonly clients = new Set<pg.Client>();
  private readonly natsConnections = new Set<NatsConnection>();
  private readonly dirs: string[] = [];

  constructor(
    readonly servicesDir: string,
    private readonly options: {
      prefix?: string;
      databaseUrl?: string;
      env?: Record<string, string>;
      /** How long a request waits for its reply unless told otherwise. */
      rpcTimeoutMs?: number;
    } = {},
  ) {
    this.prefix = options.prefix ?? `t${randomBytes(4).toString('hex')}`;
    this.databaseUrl = options.databaseUrl ?? TEST_DATABASE_URL;
  }

  async startNats(): Promise<void> {
    this.nats = await startNats();
    this.natsUrl = this.nats.url;
  }

  /** Connection options as one service (its permissions, its inbox), or as the unrestricted harness. */
  natsOptions(identity?: ServiceName | 'harness'): ConnectionOptions {
    if (!this.nats) throw new Error('startNats() first');
    return this.nats.options(identity);
  }

  /** A connection of the test's own as `identity` (closed by stop()). */
  async connectNats(identity?: ServiceName | 'harness'): Promise<NatsConnection> {
    const nc = await connect(this.natsOptions(identity));
    this.natsConnections.add(nc);
    return nc;
  }

  /** What a process needs to be `service` on this stack's bus: NATS_URL and its NATS_NKEY_SEED. */
  busEnv(service: ServiceName): Record<string, string> {
    if (!this.nats) throw new Error('startNats() first');
    return { NATS_URL: this.natsUrl, NATS_NKEY_SEED: this.nats.keys[service].seed };
  }

  /** The raw connection: subscriptions, JetStream, publishing plain JSON (as the unrestricted harness). */
  get nc(): NatsConnection {
    if (!this.nats) throw new Error('startNats() first');
    return this.nats.nc;
  }

  /** The owner's throwaway schema, dropped by stop(). */
  schema(owner: string): string {
    this.owners.add(owner);
    return `${this.prefix}_${owner}`;
  }

  env(owner: string, extra: Record<string, string> = {}): Record<string, string> {
    // A service's processes connect with its key; another owner (a tool) gets none.
    const seed: Record<string, string> =
      this.nats && isService(owner) ? { NATS_NKEY_SEED: this.nats.keys[owner].seed } : {};
    return {
      DATABASE_URL: this.databaseUrl,
      NATS_URL: this.natsUrl,
      ...seed,
      DB_SCHEMA: this.schema(owner),
      LOG_LEVEL: 'warn',
      ...this.options.env,
      ...extra,
    };
  }

  /** A built entry point of a service: dist/src/<file>. */
  script(service: string, file = 'main.js'): string {
    return join(this.servicesDir, service, 'dist', 'src', file);
  }

  /** Runs the service's own migrate.js (as the Kubernetes Job does) into its schema. */
  async migrate(service: string, extra: Record<string, string> = {}): Promise<void> {
    const result = await runNode(this.script(service, 'migrate.js'), this.env(service, extra));
    if (result.code !== 0) throw new Error(`${service} migrations failed: ${result.output}`);
  }

  /** Starts a service (or another of its entry points) under `name`, which kill/restart use. */
  spawn(
    service: string,
    extra: Record<string, string> = {},
    options: { name?: string; script?: string; env?: Record<string, string> } = {},
  ): ServiceProcess {
    const name = options.name ?? service;
    const script = options.script ?? this.script(service);
    const env = options.env ?? this.env(service, extra);
    const process = new ServiceProcess(name, script, env);
    this.running.add(process);
    process.child.once('exit', () => this.running.delete(process));
    this.spawned.set(name, { service, script, env, process });
    return process;
  }

  process(name: string): ServiceProcess | undefined {
    return this.spawned.get(name)?.process;
  }

  /** kill -9 by default: no shutdown hook runs, whatever it held unacknowledged is redelivered later. */
  async kill(name: string, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    await this.spawned.get(name)?.process.stop(signal);
  }

  /** The same process again (same script and environment) after stopping the old one. */
  async restart(name: string, signal: NodeJS.Signals = 'SIGTERM'): Promise<ServiceProcess> {
    const previous = this.spawned.get(name);
    if (!previous) throw new Error(`no process named ${name}`);
    await previous.process.stop(signal);
    return this.spawn(previous.service, {}, { name, script: previous.script, env: previous.env });
  }

  /** Platform's RpcClient on this stack's NATS: typed by the contract, reply validated, failures as DomainError. */
  get rpc(): RpcClient {
    if (!this.rpcClient) {
      // The stack's own connection, as a service's RpcClient rides its process's one connection.
      if (!this.nats) throw new Error('startNats() first');
      this.rpcClient = new RpcClient(new Nats(this.nats.nc), this.options.rpcTimeoutMs ?? 10_000);
    }
    return this.rpcClient;
  }

  request<C extends Contract>(contract: C, payload: RequestOf<C>, timeoutMs?: number): Promise<ReplyOf<C>> {
    return this.rpc.request(contract, payload, timeoutMs === undefined ? {} : { timeoutMs });
  }

  /** Outside any contract: what a test sends to see the handler refuse it. */
  requestUnchecked(subject: string, payload: unknown, timeoutMs?: number): Promise<unknown> {
    return this.rpc.requestUnchecked(subject, payload, timeoutMs === undefined ? {} : { timeoutMs });
  }

  /** Until `contract` answers `payload` without an error; fails early with the log of a process that died. */
  async waitFor<C extends Contract>(
    contract: C,
    payload: RequestOf<C>,
    options: { timeoutMs?: number; process?: ServiceProcess } = {},
  ): Promise<ReplyOf<C>> {
    const { timeoutMs = 60_000, process } = options;
    const started = Date.now();
    for (;;) {
      try {
        return await this.request(contract, payload, 2_000);
      } catch (error) {
        if (process && !process.running)
          throw new Error(
            `${process.name} exited (${process.child.exitCode}) before answering ${contract.subject}:\n${process.output}`,
          );
        if (Date.now() - started > timeoutMs)
          throw new Error(
            `${contract.subject} did not answer in ${timeoutMs} ms: ${String(error)}${process ? `\n${process.output.slice(-3000)}` : ''}`,
          );
        await sleep(250);
      }
    }
  }

  /** Until the service answers its health subject (its migrations are done, its handlers are bound). */
  waitForHealth(service: ServiceName, process = this.process(service), timeoutMs = 60_000): Promise<unknown> {
    return this.waitFor(contracts.health(service), {}, { timeoutMs, ...(process ? { process } : {}) });
  }

  /** Until `url` answers in a way `accept` takes (by default: any HTTP answer, it listens). */
  async waitForHttp(
    url: string,
    options: { accept?: (status: number) => boolean; timeoutMs?: number; process?: ServiceProcess } = {},
  ): Promise<void> {
    const { accept = () => true, timeoutMs = 60_000, process } = options;
    const started = Date.now();
    for (;;) {
      const status = await fetch(url).then(
        (r) => r.status,
        () => 0,
      );
      if (status > 0 && accept(status)) return;
      if (process && !process.running)
        throw new Error(
          `${process.name} exited (${process.child.exitCode}) before ${url} answered:\n${process.output}`,
        );
      if (Date.now() - started > timeoutMs)
        throw new Error(`${url} did not answer in ${timeoutMs} ms (last status ${status})`);
      await sleep(200);
    }
  }

  /** A temporary directory removed by stop(). */
  async tempDir(prefix = 'vigil-test-'): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  /** The database as superuser, no search_path: name the schema in the SQL. */
  pool(): pg.Pool {
    this.adminPool ??= new pg.Pool({ connectionString: this.databaseUrl, max: 3 });
    return this.adminPool;
  }

  /** SQL as the database superuser in the owner's schema; the rows. */
  // Rows are whatever the test selected; it asserts on them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async sql<R extends pg.QueryResultRow = any>(owner: string, text: string, params: unknown[] = []): Promise<R[]> {
    const client = await this.pool().connect();
    try {
      await client.query(`SET search_path = "${this.schema(owner)}"`);
      return (await client.query<R>(text, params)).rows;
    } finally {
      await client.query('RESET search_path').catch(() => undefined);
      client.release();
    }
  }

  /** A connection of its own with search_path on the owner's schema (closed by stop()). */
  async connect(owner: string): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      options: `-c search_path="${this.schema(owner)}"`,
    });
    await client.connect();
    this.clients.add(client);
    return client;
  }

  /** Every process stopped, NATS stopped and its store removed, every schema dropped, temp directories removed. */
  async stop(): Promise<void> {
    await Promise.all([...this.running].map((p) => p.stop('SIGTERM')));
    for (const nc of this.natsConnections) await nc.close().catch(() => undefined);
    await this.nats?.stop();
    for (const client of this.clients) await client.end().catch(() => undefined);
    for (const owner of this.owners)
      await this.pool()
        .query(`DROP SCHEMA IF EXISTS "${this.prefix}_${owner}" CASCADE`)
        .catch(() => undefined);
    await this.adminPool?.end();
    for (const dir of this.dirs) await rm(dir, { recursive: true, force: true, maxRetries: 5 });
  }
}

/**
 * Names whose best match on the sample lists falls in the review band (0.6 ≤ score < 0.85 with the
 * default thresholds) under the default algorithm, vigil-v3: a surname alone, a name off by a letter
 * or two. The tests that need a review screen them in order, take the first that lands there and
 * check its band; several, so a scoring change that moves one out does not starve them. (v3's
 * containment moved v2's 'Jong Un Kim Sr' into the blocked band.)
 */
export const REVIEW_BAND_NAMES: readonly string[] = [
  'Joaquin Guzman',
  'Ismail Haniya',
  'Kim Jong Ung',
  'Igor Sechinov',
  'Lavrov',
  'Nasrallah',
];
