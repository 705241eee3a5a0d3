import { roleDatabaseUrl, runMigrations, serviceRole } from '@vigil/platform';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { migrations } from '../migrations/index.js';
import { DATABASE_URL } from './harness.js';

const SERVICES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Each service connects as its own role (vigil_<service>), which its migrations create and grant
 * its schema alone: billing's cannot read auth's signing keys, TOTP seeds or users.
 */
describe('database roles', () => {
  const prefix = `t${randomBytes(4).toString('hex')}`;
  const authSchema = `${prefix}_auth`;
  const billingSchema = `${prefix}_billing`;
  let billing: pg.Client;

  beforeAll(async () => {
    // The built auth migrations, as the harness loads them (auth's sources are outside this project).
    const { migrations: authMigrations } = (await import(
      join(SERVICES_DIR, 'auth', 'dist', 'migrations', 'index.js')
    )) as {
      migrations: Parameters<typeof runMigrations>[0]['migrations'];
    };
    await runMigrations({ databaseUrl: DATABASE_URL, schema: authSchema, migrations: authMigrations });
    await runMigrations({ databaseUrl: DATABASE_URL, schema: billingSchema, migrations });
    billing = new pg.Client({ connectionString: roleDatabaseUrl(DATABASE_URL, serviceRole(billingSchema)) });
    await billing.connect();
  });

  afterAll(async () => {
    await billing?.end();
    const owner = new pg.Client({ connectionString: DATABASE_URL });
    await owner.connect();
    await owner.query(`DROP SCHEMA IF EXISTS "${authSchema}" CASCADE`);
    await owner.query(`DROP SCHEMA IF EXISTS "${billingSchema}" CASCADE`);
    await owner.end();
  });

  it('connects billing as vigil_billing, which works in its own schema', async () => {
    expect(serviceRole(billingSchema)).toBe('vigil_billing');
    expect((await billing.query(`SELECT current_user AS name`)).rows[0].name).toBe('vigil_billing');
    await billing.query(`SELECT count(*) FROM "${billingSchema}".checkout_sessions`);
    await billing.query(
      `INSERT INTO "${billingSchema}".processed_messages (consumer, message_id) VALUES ('role-check', 'role-check')`,
    );
  });

  // Issue #33: at runtime a service holds DML on its schema and nothing else; its schema changes
  // only through migrations, run by the migration role.
  it.each([
    ['create a table in its own schema', `CREATE TABLE "${billingSchema}".extra (id int)`],
    ['drop one of its tables', `DROP TABLE "${billingSchema}".checkout_sessions`],
    ['alter one of its tables', `ALTER TABLE "${billingSchema}".checkout_sessions ADD COLUMN extra int`],
    [
      'put a trigger on one of its tables',
      `CREATE TRIGGER t BEFORE INSERT ON "${billingSchema}".checkout_sessions FOR EACH ROW EXECUTE FUNCTION suppress_redundant_updates_trigger()`,
    ],
    ['create a schema', `CREATE SCHEMA "${billingSchema}_extra"`],
    ['drop its own schema', `DROP SCHEMA "${billingSchema}" CASCADE`],
  ])('refuses billing’s runtime role to %s', async (_what, statement) => {
    const error = await billing.query(statement).then(
      () => undefined,
      (e: { code?: string }) => e,
    );
    // 42501: insufficient_privilege (no CREATE on the schema or database, not the owner).
    expect(error?.code).toBe('42501');
  });

  it.each([['signing_keys'], ['mfa_factors'], ['users']])('refuses billing any read of auth.%s', async (table) => {
    const error = await billing.query(`SELECT * FROM "${authSchema}".${table} LIMIT 1`).then(
      () => undefined,
      (e: { code?: string }) => e,
    );
    // 42501: insufficient_privilege (no USAGE on the auth schema).
    expect(error?.code).toBe('42501');
  });
});
