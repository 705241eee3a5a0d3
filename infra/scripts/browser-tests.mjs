// The browser step of `npm test`, also runnable alone once everything is built:
//   NATS_URL=… DATABASE_URL=… node infra/scripts/browser-tests.mjs [jest args, e.g. a test file pattern]
// It starts a loopback OpenID provider standing in for Google, then the whole
// stack on a fresh database (auth pointed at that provider), then jest with web/e2e.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, fail, log, run } from './bootstrap.mjs';

export const BROWSER_PORTS = { gateway: 18080, web: 13000, admin: 13001 };

/**
 * @param {{ postgresUrl: string, natsUrl: string, runJest: (env: Record<string,string>) => number }} options
 * @returns {Promise<{ status: number, stackFailed: boolean }>}
 */
export async function runBrowserTests({ postgresUrl, natsUrl, runJest }) {
  const { freshDatabase } = await import('./infrastructure.mjs');
  const { seedDemo, startStack } = await import('./stack.mjs');
  const { startTestOidcProvider } = await import('./test-oidc-provider.mjs');
  const webUrl = `http://127.0.0.1:${BROWSER_PORTS.web}`;
  let provider;
  let stack;
  let demo;
  // The sample lists, copied where a test may change a file and refresh it to see a new version.
  const listsDir = mkdtempSync(join(tmpdir(), 'vigil-e2e-lists-'));
  cpSync(join(ROOT, 'services', 'screening', 'sample-lists'), listsDir, { recursive: true });
  try {
    provider = await startTestOidcProvider({ redirectUri: `${webUrl}/auth/callback` });
    stack = await startStack({
      databaseUrl: await freshDatabase(postgresUrl, 'vigil_e2e'),
      natsUrl,
      ports: BROWSER_PORTS,
      logDir: join(ROOT, 'test-results', 'stack-logs'),
      // The demo admin takes the first allow-listed address; the tests keep admin@vigil.dev to themselves.
      env: { ...provider.env, ADMIN_EMAILS: 'demo-admin@vigil.dev,admin@vigil.dev', LISTS_DIR: listsDir },
    });
    // The demo client npm start hands out, seeded the same way (auth, then a sandbox subscription through billing).
    demo = await seedDemo(stack.env, stack.gatewayUrl);
  } catch (error) {
    log(`The stack did not start: ${error.message} (logs in test-results/stack-logs)`);
    await stack?.stop();
    await provider?.stop();
    rmSync(listsDir, { recursive: true, force: true });
    return { status: 1, stackFailed: true };
  }
  try {
    const status = runJest({
      NATS_URL: natsUrl,
      DATABASE_URL: stack.env.DATABASE_URL,
      GATEWAY_URL: stack.gatewayUrl,
      WEB_URL: stack.webUrl,
      ADMIN_URL: stack.adminUrl,
      OIDC_PROVIDER_URL: provider.issuer,
      DEMO_CLIENT_EMAIL: demo.client.email,
      DEMO_CLIENT_PASSWORD: demo.client.password,
      DEMO_CLIENT_API_KEY: demo.client.apiKey,
      DEMO_ADMIN_EMAIL: demo.admin.email,
      DEMO_ADMIN_PASSWORD: demo.admin.password,
      E2E_LISTS_DIR: listsDir,
    });
    return { status, stackFailed: false };
  } finally {
    await stack.stop();
    await provider.stop();
    rmSync(listsDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { ensureChromium } = await import('./chromium.mjs');
  ensureChromium({ log, fail });
  const { ensureNats, ensurePostgres } = await import('./infrastructure.mjs');
  const postgres = await ensurePostgres({
    candidate: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vigil_test',
    databaseName: 'vigil_test',
  });
  const nats = await ensureNats();
  let result;
  try {
    result = await runBrowserTests({
      postgresUrl: postgres.url,
      natsUrl: nats.url,
      runJest: (env) =>
        run(
          process.execPath,
          [
            '--experimental-vm-modules',
            join('node_modules', 'jest', 'bin', 'jest.js'),
            '-c',
            join('web', 'e2e', 'jest.config.js'),
            ...process.argv.slice(2),
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
