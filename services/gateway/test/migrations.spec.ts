import { jest } from '@jest/globals';
import { join } from 'node:path';
import { TestStack } from '@vigil/platform/testing';
import { BACKEND_SERVICES, SERVICES_DIR, testEnv } from './stack.js';

jest.setTimeout(90_000);

describe('each service migrates its own schema', () => {
  const services = new TestStack(SERVICES_DIR);
  afterAll(() => services.stop());

  it('creates the tables in the service schema only, and a second run is a no-op', async () => {
    await Promise.all(BACKEND_SERVICES.map((s) => services.migrate(s)));
    await Promise.all(BACKEND_SERVICES.map((s) => services.migrate(s)));
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: testEnv.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ table_schema: string; table_name: string }>(
        `SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema LIKE $1 ORDER BY 1, 2`,
        [`${services.prefix}_%`],
      );
      for (const service of BACKEND_SERVICES) {
        const tables = rows.filter((r) => r.table_schema === services.schema(service)).map((r) => r.table_name);
        expect(tables).toEqual(expect.arrayContaining(['migrations', 'processed_messages']));
      }
      // Each of audit's migrations recorded once: the second run applied nothing.
      const { migrations } = (await import(join(SERVICES_DIR, 'audit', 'dist', 'migrations', 'index.js'))) as {
        migrations: unknown[];
      };
      const applied = await client.query(`SELECT count(*)::int AS n FROM "${services.schema('audit')}".migrations`);
      expect(applied.rows[0].n).toBe(migrations.length);
    } finally {
      await client.end();
    }
  });
});
