// The browser step of `npm test`, also runnable alone once everything is built:
//   NATS_URL=… DATABASE_URL=… node infra/scripts/browser-tests.mjs [jest args, e.g. a test file pattern]
// It starts a loopback OpenID provider standing in for Google, then the whole
// stack on a fresh database (auth pointed at that provider), then jest with web/e2e:
// first every file but the access-token expiry tests, then, with auth restarted to issue
// short-lived access tokens, those.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, fail, log, run } from './bootstrap.mjs';

// VIGIL_BROWSER_PORTS=gateway,web,admin[,smtp,inbox] moves them, so a second checkout on the same
// machine can run its browser tests while npm test runs in another. The mail catcher's two ports
// default to the admin console's plus 2 and plus 3, so moving the three moves them too.
const [gateway = 18080, web = 13000, admin = 13001, smtp = admin + 2, inbox = admin + 3] = (
  process.env.VIGIL_BROWSER_PORTS ?? ''
)
  .split(',')
  .filter(Boolean)
  .map(Number);
export const BROWSER_PORTS = { gateway, web, admin, smtp, inbox };
export const BROWSER_JEST_CONFIG = join('web', 'e2e', 'jest.config.js');

/**
 * The browser tests that watch an access token expire for real at the gateway. Auth's default
 * lifetime (15 min) is too long to wait out and too useful to shorten for the whole run: with
 * 30-second tokens every open page's SessionKeeper would refresh every 22 seconds, and every other
 * test would run amid those refreshes. These files run last, after auth is restarted with the shortest
 * lifetime it accepts (ACCESS_TOKEN_TTL_SECONDS, services/auth/src/env.ts).
 */
const TOKEN_EXPIRY_TESTS = /[/\\]token-expiry\.e2e\.ts$/;
const TOKEN_EXPIRY_MATCH = '**/token-expiry.e2e.ts';
const SHORT_ACCESS_TOKEN_TTL_SECONDS = 30;

/** The test files jest would run for these arguments, without running them. */
function listTests(jestArgs) {
  const listed = spawnSync(
    process.execPath,
    [join('node_modules', 'jest', 'bin', 'jest.js'), '-c', BROWSER_JEST_CONFIG, '--listTests', '--json', ...jestArgs],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '--experimental-vm-modules' } },
  );
  if (listed.status !== 0) throw new Error(`jest --listTests failed: ${listed.stderr.trim()}`);
  return /** @type {string[]} */ (JSON.parse(listed.stdout));
}

/**
 * `runJest(env, args)` runs jest with web/e2e's config and these extra arguments; `jestArgs`
 * (a file pattern, -t …) are passed to every run.
 * `busKeys`: the services' NATS keys when the server has the bus's authorization (ensureNats's `keys`).
 * `conformance`: then the load smoke (infra/suites/load, its outcome `conformance.loadSmoke`) and
 * Schemathesis (infra/scripts/schemathesis.mjs, `conformance.status`) against the same stack (0 when they passed).
 * @param {{ postgresUrl: string, natsUrl: string, busKeys?: Record<string, {seed: string}>, runJest: (env: Record<string,string>, args: string[]) => number, jestArgs?: string[], conformance?: boolean }} options
 * @returns {Promise<{ status: number, stackFailed: boolean, conformance?: { status: number, loadSmoke: number } }>}
 */
export async function runBrowserTests({ postgresUrl, natsUrl, busKeys, runJest, jestArgs = [], conformance = false }) {
  const { freshDatabase } = await import('./infrastructure.mjs');
  const { seedDemo, startStack, waitForHealth } = await import('./stack.mjs');
  const selected = listTests(jestArgs);
  const expiryTests = selected.filter((file) => TOKEN_EXPIRY_TESTS.test(file));
  const { startTestOidcProvider } = await import('./test-oidc-provider.mjs');
  const webUrl = `http://127.0.0.1:${BROWSER_PORTS.web}`;
  let provider;
  let stack;
  let demo;
  let mail;
  // The sample lists, copied where a test may change a file and refresh it to see a new version.
  const listsDir = mkdtempSync(join(tmpdir(), 'vigil-e2e-lists-'));
  cpSync(join(ROOT, 'services', 'screening', 'sample-lists'), listsDir, { recursive: true });
  try {
    provider = await startTestOidcProvider({ redirectUri: `${webUrl}/auth/callback` });
    // The local SMTP catcher npm start runs: auth and billing send real SMTP to it (mail.e2e.ts reads its
    // inbox). In a child process: jest runs synchronously below and would block an in-process one.
    const { spawnMailCatcher } = await import('./mail-catcher.mjs');
    mail = await spawnMailCatcher({ smtpPort: BROWSER_PORTS.smtp, webPort: BROWSER_PORTS.inbox });
    stack = await startStack({
      databaseUrl: await freshDatabase(postgresUrl, 'vigil_e2e'),
      natsUrl,
      busKeys,
      ports: BROWSER_PORTS,
      logDir: join(ROOT, 'test-results', 'stack-logs'),
      // The demo admin takes the first allow-listed address; the tests keep admin@vigil.dev (never created)
      // and enrol-admin@vigil.dev (signs up and enrols an authenticator in the console) to themselves.
      env: {
        ...provider.env,
        SMTP_URL: mail.smtpUrl,
        ADMIN_EMAILS: 'demo-admin@vigil.dev,admin@vigil.dev,enrol-admin@vigil.dev',
        LISTS_DIR: listsDir,
        // Local mode: the SDKs' README programs receive a signed test event on 127.0.0.1 (sdk*.e2e.ts).
        WEBHOOK_ALLOW_LOOPBACK: 'true',
      },
    });
    // The demo client npm start hands out, seeded the same way (auth, then a sandbox subscription through billing).
    demo = await seedDemo({ ...stack.env, ...stack.serviceEnv('auth') }, stack.gatewayUrl);
  } catch (error) {
    log(`The stack did not start: ${error.message} (logs in test-results/stack-logs)`);
    await stack?.stop();
    await provider?.stop();
    await mail?.stop();
    rmSync(listsDir, { recursive: true, force: true });
    return { status: 1, stackFailed: true };
  }
  try {
    const env = {
      NATS_URL: natsUrl,
      DATABASE_URL: stack.env.DATABASE_URL,
      GATEWAY_URL: stack.gatewayUrl,
      WEB_URL: stack.webUrl,
      ADMIN_URL: stack.adminUrl,
      OIDC_PROVIDER_URL: provider.issuer,
      MAIL_INBOX_URL: mail.inboxUrl,
      DEMO_CLIENT_EMAIL: demo.client.email,
      DEMO_CLIENT_PASSWORD: demo.client.password,
      DEMO_CLIENT_API_KEY: demo.client.apiKey,
      DEMO_ADMIN_EMAIL: demo.admin.email,
      DEMO_ADMIN_PASSWORD: demo.admin.password,
      DEMO_ADMIN_TOTP_SECRET: demo.admin.totpSecret,
      // For an allow-listed admin without an authenticator, enrolled by the console (admin.e2e.ts).
      DEMO_ADMIN_INVITATION: demo.invitationCode,
      E2E_LISTS_DIR: listsDir,
    };
    // Nothing selected: jest itself says so (and fails).
    if (selected.length === 0) return { status: runJest(env, jestArgs), stackFailed: false };
    let status = 0;
    if (expiryTests.length < selected.length) {
      status = runJest(env, [...jestArgs, '--testPathIgnorePatterns', '/node_modules/', TOKEN_EXPIRY_TESTS.source]);
    }
    if (expiryTests.length > 0) {
      log(`Restarting auth with ${SHORT_ACCESS_TOKEN_TTL_SECONDS}-second access tokens for the token expiry tests...`);
      try {
        await stack.kill('auth', 'SIGTERM');
        stack.restart('auth', { ACCESS_TOKEN_TTL_SECONDS: String(SHORT_ACCESS_TOKEN_TTL_SECONDS) });
        await waitForHealth(stack.gatewayUrl, 60_000);
      } catch (error) {
        log(`Auth did not come back with short-lived tokens: ${error.message} (logs in test-results/stack-logs)`);
        return { status: 1, stackFailed: true };
      }
      const expiryStatus = runJest(env, [...jestArgs, '--testMatch', TOKEN_EXPIRY_MATCH]);
      if (status === 0) status = expiryStatus;
    }
    if (!conformance) return { status, stackFailed: false };
    return { status, stackFailed: false, conformance: await runConformance(stack, demo) };
  } finally {
    await stack.stop();
    await provider.stop();
    await mail.stop();
    rmSync(listsDir, { recursive: true, force: true });
  }
}

/**
 * Schemathesis on the stack the browser tests are done with (nothing runs on it afterwards, so what
 * the fuzzer changes harms no test): auth back to its usual token lifetime, the gateway's rate
 * limits scaled up so the generated requests reach the routes rather than 429, and the demo
 * client's API key with a session of its user; the admin operations with the demo admin's aal2
 * session, the destructive ones on clients created for them.
 */
async function runConformance(stack, demo) {
  try {
    for (const [service, overrides] of [
      ['auth', {}],
      // A conformance run, not a latency test: thousands of refused requests become security
      // events the audit service records meanwhile, and on a busy 2-core runner an evidence page
      // behind that backlog could miss the usual 5 s and be a 504 Schemathesis counts as an error.
      [
        'gateway',
        { RATE_LIMIT_SCALE: '1000', SESSION_RATE_LIMIT_PER_MINUTE: '100000', NATS_REQUEST_TIMEOUT_MS: '30000' },
      ],
    ]) {
      await stack.kill(service, 'SIGTERM');
      stack.restart(service, overrides);
    }
    const { waitForHealth } = await import('./stack.mjs');
    await waitForHealth(stack.gatewayUrl, 60_000);
    const signIn = await fetch(`${stack.gatewayUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: demo.client.email, password: demo.client.password }),
    });
    if (!signIn.ok) throw new Error(`the demo client's sign-in answered ${signIn.status}`);
    const { access_token: accessToken } = await signIn.json();
    // The load smoke (issue #38) first, while the stack is warm and the rate limit lifted: every route
    // of the scenario table at a trickle for 12 s, judged by its thresholds after 3 s of warm-up (≈ 15 s).
    const { loadScenario } = await import('../suites/load/load.mjs');
    const smoke = await loadScenario({
      scenarioName: 'smoke',
      url: stack.gatewayUrl,
      keys: [demo.client.apiKey],
      credentials: { email: demo.client.email, password: demo.client.password },
    }).catch((error) => {
      log(`The load smoke could not run: ${error.message}`);
      return { passed: false };
    });
    const { adminOperations, adminToken, runSchemathesis, throwawayClients } = await import('./schemathesis.mjs');
    const token = await adminToken({
      gatewayUrl: stack.gatewayUrl,
      email: demo.admin.email,
      password: demo.admin.password,
      totpSecret: demo.admin.totpSecret,
    });
    const admin = {
      token,
      operations: await adminOperations(stack.gatewayUrl),
      throwawayClients: await throwawayClients(stack.gatewayUrl, token),
    };
    const outcome = runSchemathesis({ gatewayUrl: stack.gatewayUrl, apiKey: demo.client.apiKey, accessToken, admin });
    return { status: outcome.status === 0 && outcome.failures === 0 ? 0 : 1, loadSmoke: smokeAnswered(smoke) ? 0 : 1 };
  } catch (error) {
    log(`Schemathesis could not run: ${error.message}`);
    return { status: 1, loadSmoke: 1 };
  }
}

/**
 * What the smoke decides in npm test: every route answered, without errors or dropped arrivals. Its
 * latency figures are printed and judged by `npm run load:*`, not here: on a 2-core runner that also
 * runs the smoke's own 1,001-name job, the p95 of a route's two dozen requests is its slowest but one
 * (fresh-clone CI run 9: the single screen's 93 ms against 100), a verdict on one request.
 */
function smokeAnswered(smoke) {
  const metrics = Object.values(smoke.metrics ?? {});
  return metrics.length > 0 && metrics.every((m) => m.thresholds.every((c) => c.ok || /^p9\d /.test(c.what)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { ensurePackages } = await import('./machine.mjs');
  ensurePackages(['nats-server', 'chromium'], { fail });
  const { ensureNats, ensureTestPostgres } = await import('./infrastructure.mjs');
  const postgres = await ensureTestPostgres();
  const nats = await ensureNats();
  let result;
  try {
    result = await runBrowserTests({
      postgresUrl: postgres.url,
      natsUrl: nats.url,
      busKeys: nats.keys,
      jestArgs: process.argv.slice(2),
      runJest: (env, args) =>
        run(
          process.execPath,
          [
            '--experimental-vm-modules',
            join('node_modules', 'jest', 'bin', 'jest.js'),
            '-c',
            BROWSER_JEST_CONFIG,
            ...args,
          ],
          {
            env: { NODE_OPTIONS: '--experimental-vm-modules', ...env },
            allowFailure: true,
            timeoutMs: 20 * 60_000,
          },
        ),
    });
  } finally {
    await nats.stop();
    await postgres.stop();
  }
  process.exit(result.status);
}
