import { jest } from '@jest/globals';
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { roleDatabaseUrl, runMigrations, serviceRole } from '@vigil/platform';
import { freePort } from '@vigil/platform/testing';
import pg from 'pg';
import { ensurePostgres } from '../scripts/infrastructure.mjs';
import { serviceDatabaseUrl } from '../scripts/stack.mjs';

const ROOT = join(import.meta.dirname, '..', '..');

/** Runs a service's built migrate.js with `env`; its exit code and what it wrote. */
function migrate(service: string, env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, 'services', service, 'dist', 'src', 'migrate.js')],
      { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn', ...env } },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/** The SQLSTATE a statement fails with, or undefined when it runs. */
const failureOf = (client: pg.Client, sql: string) =>
  client.query(sql).then(
    () => undefined,
    (e: { code?: string }) => e.code,
  );

jest.setTimeout(120_000);

// npm start's embedded Postgres checks passwords (unlike a trust-auth 127.0.0.1): the role each
// service connects as must log in with DATABASE_URL's password, and still see only its schema.
describe('service roles on the embedded Postgres of npm start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-embedded-roles-'));
  chmodSync(dir, 0o755);
  // One server for both cases (starting one costs seconds); the second works in a database of its own.
  let postgres: Awaited<ReturnType<typeof ensurePostgres>>;
  beforeAll(async () => {
    postgres = await ensurePostgres({
      candidate: null,
      databaseName: 'vigil',
      port: await freePort(),
      dataDir: join(dir, 'postgres'),
    });
  });
  afterAll(async () => {
    await postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lets vigil_billing in with the URL’s password, into billing’s schema and not auth’s', async () => {
    const owner = new pg.Client({ connectionString: postgres.url });
    await owner.connect();
    try {
      for (const schema of ['auth', 'billing']) {
        await runMigrations({ databaseUrl: postgres.url, schema, migrations: [] });
        await owner.query(`CREATE TABLE "${schema}".secrets (value text)`);
      }
      // Tables made after a migrate run are granted by the next one.
      await runMigrations({ databaseUrl: postgres.url, schema: 'billing', migrations: [] });
    } finally {
      await owner.end();
    }
    expect(new URL(postgres.url).password).not.toBe('');
    const billing = new pg.Client({ connectionString: roleDatabaseUrl(postgres.url, serviceRole('billing')) });
    await billing.connect();
    try {
      expect((await billing.query('SELECT current_user AS name')).rows[0].name).toBe('vigil_billing');
      await billing.query(`INSERT INTO billing.secrets VALUES ('ours')`);
      const error = await billing.query('SELECT * FROM auth.secrets').then(
        () => undefined,
        (e: { code?: string }) => e,
      );
      expect(error?.code).toBe('42501');
    } finally {
      await billing.end();
    }
    // And a wrong password is refused: the role really is password-checked here.
    const wrong = new URL(roleDatabaseUrl(postgres.url, 'vigil_billing'));
    wrong.password = 'not-the-password';
    const refused = await new pg.Client({ connectionString: wrong.toString() }).connect().then(
      () => undefined,
      (e: { code?: string }) => e,
    );
    expect(refused?.code).toBe('28P01');
  });

  // Issue #33: each service its own credentials. npm start, compose and k8s give migrate.js the
  // migration role (MIGRATION_DATABASE_URL) and the service's own URL; the service only the latter.
  it('gives each service a password of its own, set by migrate.js as the migration role', async () => {
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query('CREATE DATABASE vigil_own');
    await admin.end();
    const ownerUrl = new URL(postgres.url);
    ownerUrl.pathname = '/vigil_own';
    const owner = ownerUrl.toString();
    const urls = {
      auth: serviceDatabaseUrl(owner, 'auth'),
      billing: serviceDatabaseUrl(owner, 'billing'),
    };
    expect(new URL(urls.auth).password).not.toBe(new URL(urls.billing).password);
    expect(new URL(urls.billing).password).not.toBe(new URL(owner).password);
    for (const service of ['auth', 'billing'] as const) {
      const run = await migrate(service, { MIGRATION_DATABASE_URL: owner, DATABASE_URL: urls[service] });
      expect({ service, ...run }).toMatchObject({ service, code: 0 });
    }
    // A DATABASE_URL that is not the service's own role is refused before anything runs.
    const wrong = await migrate('billing', { MIGRATION_DATABASE_URL: owner, DATABASE_URL: owner });
    expect(wrong.code).toBe(78);
    expect(wrong.output).toMatch(/DATABASE_URL must name the service's own role "vigil_billing"/);

    const billing = new pg.Client({ connectionString: urls.billing });
    await billing.connect();
    try {
      expect((await billing.query('SELECT current_user AS name')).rows[0].name).toBe('vigil_billing');
      await billing.query('SELECT count(*) FROM billing.checkout_sessions');
      expect(await failureOf(billing, 'SELECT * FROM auth.users LIMIT 1')).toBe('42501');
      expect(await failureOf(billing, 'CREATE TABLE billing.extra (id int)')).toBe('42501');
      expect(await failureOf(billing, 'DROP TABLE billing.checkout_sessions')).toBe('42501');
    } finally {
      await billing.end();
    }
    // Auth's password does not open billing's role, nor the owner's.
    for (const [user, password] of [
      ['vigil_billing', new URL(urls.auth).password],
      ['vigil_billing', new URL(owner).password],
    ]) {
      const url = new URL(owner);
      url.username = user!;
      url.password = password!;
      const refused = await new pg.Client({ connectionString: url.toString() }).connect().then(
        () => undefined,
        (e: { code?: string }) => e.code,
      );
      expect(refused).toBe('28P01');
    }
  });
});
