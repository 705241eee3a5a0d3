import { jest } from '@jest/globals';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { roleDatabaseUrl, runMigrations, serviceRole } from '@vigil/platform';
import { freePort } from '@vigil/platform/testing';
import pg from 'pg';
import { ensurePostgres } from '../scripts/infrastructure.mjs';

jest.setTimeout(120_000);

// npm start's embedded Postgres checks passwords (unlike a trust-auth 127.0.0.1): the role each
// service connects as must log in with DATABASE_URL's password, and still see only its schema.
describe('service roles on the embedded Postgres of npm start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-embedded-roles-'));
  chmodSync(dir, 0o755);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lets vigil_billing in with the URL’s password, into billing’s schema and not auth’s', async () => {
    const postgres = await ensurePostgres({
      candidate: null,
      databaseName: 'vigil',
      port: await freePort(),
      dataDir: join(dir, 'postgres'),
    });
    try {
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
    } finally {
      await postgres.stop();
    }
  });
});
