// The quota counter against the real Postgres: concurrent reservations of one client share
// statements, and that must never let the count pass the quota, refuse a request that fits, or
// hand two requests the same total.
import { parseConfig, runMigrations } from '@vigil/platform';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { migrations } from '../migrations/index.js';
import { envSchema } from '../src/env.js';
import { Database } from '../src/infra/database.js';
import { QuotasRepository } from '../src/quotas/quotas.repository.js';
import { testEnv } from './stack.js';

const schema = `t${randomUUID().replaceAll('-', '').slice(0, 10)}_gateway`;
const config = parseConfig(envSchema, { ...testEnv, DB_SCHEMA: schema });
const period = '2026-11-01T00:00:00.000Z';
let db: Database;
let quotas: QuotasRepository;

beforeAll(async () => {
  await runMigrations({ databaseUrl: testEnv.DATABASE_URL, schema, migrations });
  db = new Database(config);
  quotas = new QuotasRepository(db);
});

afterAll(async () => {
  await db.onApplicationShutdown();
  const client = new pg.Client({ connectionString: testEnv.DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

describe('QuotasRepository.reserve under concurrency', () => {
  it('lets exactly the quota through, each with its own running total, when 40 requests race for 10 calls', async () => {
    const client = randomUUID();
    const answers = await Promise.all(Array.from({ length: 40 }, () => quotas.reserve(client, period, 1, 10)));
    const granted = answers.filter((used): used is number => used !== null);
    expect(granted.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await quotas.used(client, period)).toBe(10);
  });

  it('still grants what fits when a batch as a whole would overshoot', async () => {
    const client = randomUUID();
    expect(await quotas.reserve(client, period, 3, 6)).toBe(3);
    // 3 remain: the 2 fits, the 4 does not, the 1 fits after the 2; together (7) they would not.
    const [two, four, one] = await Promise.all([
      quotas.reserve(client, period, 2, 6),
      quotas.reserve(client, period, 4, 6),
      quotas.reserve(client, period, 1, 6),
    ]);
    expect(four).toBeNull();
    expect([two, one].sort()).toEqual([5, 6]);
    expect(await quotas.used(client, period)).toBe(6);
  });

  it('keeps clients and periods apart, and judges each request by the quota it came with', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const answers = await Promise.all([
      quotas.reserve(a, period, 2, 2),
      quotas.reserve(b, period, 2, 2),
      quotas.reserve(a, '2026-12-01T00:00:00.000Z', 2, 2),
      // Same client and period, judged against a higher quota (an upgrade between two requests).
      quotas.reserve(a, period, 1, 3),
    ]);
    expect(answers).toEqual([2, 2, 2, 3]);
    expect(await quotas.reserve(a, period, 1, 3)).toBeNull();
    await quotas.release(a, period, 1);
    expect(await quotas.used(a, period)).toBe(2);
  });
});
