// Starts and stops the whole product: migrations, the six services and both
// web apps. Used by `npm start` (logs to the terminal) and `npm test` (logs to files).
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT, fail, log } from './bootstrap.mjs';

export const SERVICES = ['auth', 'screening', 'monitoring', 'billing', 'audit', 'gateway'];
// A service with a schema ships dist/src/migrate.js; the others have nothing to migrate.
const migrated = () => SERVICES.filter((s) => existsSync(join(ROOT, 'services', s, 'dist', 'src', 'migrate.js')));
const COLORS = [33, 35, 32, 34, 36, 31, 93, 95];

function output(name, child, logDir) {
  if (logDir) {
    const file = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
    child.stdout?.pipe(file);
    child.stderr?.pipe(file);
    return;
  }
  const color = COLORS[Math.abs([...name].reduce((a, c) => a + c.charCodeAt(0), 0)) % COLORS.length];
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on('line', (line) => process.stdout.write(`\x1b[${color}m${name.padEnd(10)}\x1b[0m ${line}\n`));
  }
}

function runToEnd(name, args, env, logDir) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    output(name, child, logDir);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${name} exited with ${code}`))));
  });
}

export async function waitForHealth(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/health`);
      const body = await res.json();
      if (res.status === 200) return body;
      last = Object.entries(body.services ?? {})
        .filter(([, s]) => s.status !== 'up')
        .map(([n]) => n)
        .join(', ');
      last = `down: ${last}`;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the gateway's /health did not turn green in ${timeoutMs / 1000}s (${last})`);
}

async function waitForHttp(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not answer in ${timeoutMs / 1000}s`);
}

/**
 * The DATABASE_URL `service` runs with: its own role (vigil_<service>, which holds only DML on its
 * schema) with a password of its own, derived from the owner's URL so that it is the same on every
 * start (roles are cluster-wide: two stacks on one server must agree) and tells nothing of the
 * owner's. The owner's URL goes only to the migrations (MIGRATION_DATABASE_URL), which create the
 * role with this password or set it again.
 */
export function serviceDatabaseUrl(ownerUrl, service) {
  const url = new URL(ownerUrl);
  const role = `vigil_${service}`;
  url.username = role;
  url.password = createHmac('sha256', ownerUrl).update(`vigil-database-role:${role}`).digest('base64url');
  return url.toString();
}

/**
 * `onStop` receives the stop function as soon as there is something to stop, so a Ctrl-C
 * while the stack is still starting stops what was spawned (the services run in their own
 * process groups and would outlive npm start otherwise).
 * `ports.probes`, when given, is the first of six consecutive ports: each service serves its
 * probes and Prometheus metrics (/livez, /readyz, /metrics) on its own (HEALTH_PORT), listed in
 * the result's `metrics`.
 * `busKeys` (from ensureNats or the suites' startNats, when they started the server with the bus's
 * authorization) gives each service its own NATS_NKEY_SEED; `busEnv(service)` is that variable.
 * Each service connects to Postgres as its own role (serviceDatabaseUrl); `databaseUrl`, the owner,
 * reaches only the migrations. `serviceEnv(service)` is what another process of the service (auth's
 * seed script) needs to be it: its NATS seed and its DATABASE_URL. The result's `env` keeps the
 * owner's DATABASE_URL for the tests that look into the database.
 * @param {{databaseUrl: string, natsUrl: string, busKeys?: Record<string, {seed: string}>, ports: {gateway: number, web: number, admin: number, probes?: number}, logDir?: string, env?: Record<string,string>, quietExits?: boolean, onStop?: (stop: () => Promise<void>) => void}} options
 */
export async function startStack(options) {
  const { databaseUrl, natsUrl, ports, logDir } = options;
  if (logDir) mkdirSync(logDir, { recursive: true });
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    PORT: String(ports.gateway),
    // Links in e-mails and the Google redirect point at the web app.
    WEB_URL: `http://127.0.0.1:${ports.web}`,
    // A development stack: auth keeps mail in its mailbox and lists it (to administrators) at
    // /auth/v1/dev/mailbox. Containers never set this; with NODE_ENV=production it is ignored.
    VIGIL_DEV_STACK: '1',
    ...options.env,
  };
  const children = new Map();
  const busEnv = (service) => (options.busKeys?.[service] ? { NATS_NKEY_SEED: options.busKeys[service].seed } : {});
  const serviceEnv = (service) => ({
    ...busEnv(service),
    DATABASE_URL: serviceDatabaseUrl(databaseUrl, service),
    // Its migrations ran with the others' (migrate.js, below); its own role could not run them.
    ...(service === 'gateway' ? { MIGRATE_ON_BOOT: 'false' } : {}),
  });
  let stopping = false;
  const probePorts = new Map();
  const spawnService = (service, probePort = probePorts.get(service), overrides = {}) => {
    probePorts.set(service, probePort);
    // Own process group: a terminal's Ctrl-C reaches only npm start, which stops the
    // services before the infrastructure they depend on.
    const child = spawn(process.execPath, [join('services', service, 'dist', 'src', 'main.js')], {
      cwd: ROOT,
      env: { ...env, ...serviceEnv(service), ...(probePort === undefined ? {} : { HEALTH_PORT: String(probePort) }), ...overrides },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    output(service, child, logDir);
    child.once('exit', (code, signal) => {
      if (!stopping && !options.quietExits) log(`${service} exited (${code ?? signal}).`);
    });
    children.set(service, child);
    return child;
  };
  /** The resilience suite's fault injection: SIGKILL a service (no shutdown hooks run), later start it again. */
  const kill = (service, signal = 'SIGKILL') =>
    new Promise((resolve) => {
      const child = children.get(service);
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  /** Starts a killed service again; `overrides` (variables of its environment) change only this start. */
  const restart = (service, overrides = {}) => spawnService(service, undefined, overrides);

  const stop = async () => {
    stopping = true;
    await Promise.all(
      [...children.values()].map(
        (child) =>
          new Promise((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const timer = setTimeout(() => child.kill('SIGKILL'), 8000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
  };

  try {
    log('Running migrations...');
    // As the migration role (the owner), each creating or updating its service's role and password.
    const migrationEnv = (s) => ({ ...env, MIGRATION_DATABASE_URL: databaseUrl, DATABASE_URL: serviceDatabaseUrl(databaseUrl, s) });
    await Promise.all(migrated().map((s) => runToEnd(`${s}:migrate`, [join('services', s, 'dist', 'src', 'migrate.js')], migrationEnv(s), logDir)));

    options.onStop?.(stop);
    /** @type {Record<string, string>} */
    const metrics = {};
    for (const [i, service] of SERVICES.entries()) {
      if (stopping) throw new Error('stopped while starting');
      const probePort = ports.probes === undefined ? undefined : ports.probes + i;
      if (probePort !== undefined) metrics[service] = `http://127.0.0.1:${probePort}/metrics`;
      spawnService(service, probePort);
    }

    const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
    for (const [name, dir, port] of [
      ['web', join('web', 'app'), ports.web],
      ['admin', 'admin-web', ports.admin],
    ]) {
      if (!existsSync(join(ROOT, dir, 'dist', 'index.html'))) throw new Error(`${dir} is not built (no dist/index.html)`);
      const child = spawn(
        process.execPath,
        [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'],
        { cwd: join(ROOT, dir), env: { ...env, GATEWAY_URL: gatewayUrl, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      output(name, child, logDir);
      children.set(name, child);
    }

    const health = await waitForHealth(gatewayUrl, 60_000);
    const webUrl = `http://127.0.0.1:${ports.web}`;
    const adminUrl = `http://127.0.0.1:${ports.admin}`;
    await Promise.all([waitForHttp(webUrl, 30_000), waitForHttp(adminUrl, 30_000)]);
    return { gatewayUrl, webUrl, adminUrl, health, metrics, stop, kill, restart, children, env, busEnv, serviceEnv };
  } catch (error) {
    await stop();
    throw error;
  }
}

export function portFromEnv(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`${name} must be a port number (1-65535), got "${raw}".`);
  return port;
}

/**
 * Seeds the demo admin, client, user and API key once (auth's seed.js is
 * idempotent and prints the same data on later runs), then makes the demo client a
 * billing customer the way a real subscriber becomes one.
 */
export async function seedDemo(env, gatewayUrl) {
  const demo = await seedAuthDemo(env);
  if (env.STRIPE_SECRET_KEY) log('The demo client has no billing customer: billing uses Stripe, not the sandbox provider.');
  else await subscribeDemoClient(gatewayUrl, demo.client);
  return demo;
}

/**
 * The demo client's user buys the large plan through the gateway with the sandbox
 * payment provider (the calls onboarding makes). Billing provisions through auth, which
 * finds the seeded client by its contact address: the client and its API key stay, and
 * billing now has the customer and its period, as for anyone who paid. Skipped when
 * billing already knows an active subscription (every later start).
 */
export async function subscribeDemoClient(gatewayUrl, client) {
  const call = async (method, path, body, headers = {}) => {
    const response = await fetch(`${gatewayUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : {};
  };
  const session = await call('POST', '/auth/v1/token?grant_type=password', {
    grant_type: 'password',
    email: client.email,
    password: client.password,
  });
  const auth = { authorization: `Bearer ${session.access_token}` };
  const subscribed = async () => (await call('GET', '/api/payment/subscription', undefined, auth)).hasSubscription === true;
  if (await subscribed()) return;
  const checkout = await call('POST', '/api/payment/create-checkout-session', { tier: 'large', clientEmail: client.email }, auth);
  const sessionId = checkout.sessionId ?? new URL(checkout.url).searchParams.get('session_id');
  await call('POST', `/api/payment/sandbox/sessions/${encodeURIComponent(sessionId)}/complete`, { cardNumber: '4242424242424242' }, auth);
  const deadline = Date.now() + 15_000;
  while (!(await subscribed())) {
    if (Date.now() > deadline) throw new Error(`billing shows no active subscription for ${client.email} 15 s after the sandbox checkout`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

function seedAuthDemo(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join('services', 'auth', 'dist', 'src', 'seed.js')], {
      cwd: ROOT,
      env: { ...env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`seed failed (${code}): ${err.trim()}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()));
      } catch {
        reject(new Error(`seed printed no JSON: ${out.slice(0, 200)}`));
      }
    });
  });
}
