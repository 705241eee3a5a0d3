import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVICE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Runs a built entry point the way a pod does and answers how it ended; config is parsed before any connection. */
function boot(entry: 'main' | 'migrate', env: Record<string, string>) {
  const result = spawnSync(process.execPath, [join(SERVICE_DIR, 'dist', 'src', `${entry}.js`)], {
    // Nowhere to connect to: a process that got past its config would fail differently, or hang until the timeout.
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      NATS_URL: 'nats://127.0.0.1:1',
      // One refused attempt, not the default minute of waiting for a Postgres that will never come.
      DATABASE_CONNECT_TIMEOUT_SECONDS: '0',
      ...env,
    },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: result.status, stderr: result.stderr };
}

const PRODUCTION = { NODE_ENV: 'production', BILLING_ENCRYPTION_KEY: randomBytes(32).toString('base64') };

describe('billing in production', () => {
  it.each([['main'], ['migrate']] as const)(
    '%s.js refuses to boot without Stripe keys: the sandbox provider would make every tier free',
    (entry) => {
      const result = boot(entry, PRODUCTION);
      expect(result.status).toBe(78);
      expect(result.stderr).toContain('STRIPE_SECRET_KEY: is required in production');
    },
  );

  it('gets past its configuration with both Stripe keys set (and then fails only on the missing infrastructure)', () => {
    const result = boot('migrate', { ...PRODUCTION, STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' });
    expect(result.status).toBe(69);
    expect(result.stderr).toContain('Postgres at postgres://nobody@127.0.0.1:1/none not reachable');
    expect(result.stderr).not.toContain('STRIPE');
  });

  it('still boots with the sandbox provider outside production', () => {
    const result = boot('migrate', { NODE_ENV: 'development' });
    expect(result.status).toBe(69);
    expect(result.stderr).not.toContain('STRIPE');
  });
});
