// Quota leases against the real Postgres, two replicas in one process (each its own pool and
// holder): blocks are counted before they are used, so however the callers race and whichever
// replica they reach, the count never passes the quota, and what a replica gives back returns.
import { createDatabase, parseConfig, runMigrations, type Database } from '@vigil/platform';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { migrations } from '../migrations/index.js';
import { envSchema } from '../src/env.js';
import { QuotaLeasesRepository } from '../src/quotas/quota-leases.repository.js';
import { QuotaLeases } from '../src/quotas/quota-leases.service.js';
import { testEnv } from './stack.js';

const schema = `t${randomUUID().replaceAll('-', '').slice(0, 10)}_gateway`;
const config = parseConfig(envSchema, { ...testEnv, DB_SCHEMA: schema, QUOTA_LEASE_TTL_SECONDS: '1' });
const period = '2026-11-01T00:00:00.000Z';
const periodEnd = '2099-01-01T00:00:00.000Z';
const databases: Database[] = [];
let sql: pg.Client;

function replica(): QuotaLeases {
  const db = createDatabase({ databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA });
  databases.push(db);
  return new QuotaLeases(new QuotaLeasesRepository(db), config);
}

async function counter(clientId: string): Promise<number> {
  const { rows } = await sql.query(`SELECT used FROM "${schema}".quota_usage WHERE client_id = $1`, [clientId]);
  return rows[0]?.used ?? 0;
}

beforeAll(async () => {
  await runMigrations({ databaseUrl: testEnv.DATABASE_URL, schema, migrations });
  sql = new pg.Client({ connectionString: testEnv.DATABASE_URL });
  await sql.connect();
});

afterAll(async () => {
  await Promise.all(databases.map((db) => db.close()));
  await sql.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await sql.end();
});

describe('quota leases', () => {
  it('answers exactly the last 50 screens when 16 callers race across two replicas', async () => {
    const [a, b] = [replica(), replica()];
    const clientId = randomUUID();
    const client = { clientId, period, periodEnd, quota: 10_000 };
    await sql.query(`INSERT INTO "${schema}".quota_usage (client_id, period, used) VALUES ($1, $2, 9950)`, [
      clientId,
      period,
    ]);
    let answered = 0;
    // Each caller alternates replicas and stops once both have refused it in a row.
    await Promise.all(
      Array.from({ length: 16 }, async (_, caller) => {
        let refusedInARow = 0;
        for (let i = caller; refusedInARow < 2; i++) {
          const taken = await (i % 2 === 0 ? a : b).take(client, 1);
          if (taken) {
            answered++;
            refusedInARow = 0;
          } else refusedInARow++;
        }
      }),
    );
    expect(answered).toBe(50);
    expect(await counter(clientId)).toBe(10_000);
    expect(await a.take(client, 1)).toBeNull();
    expect(await b.take(client, 1)).toBeNull();
    await Promise.all([a.beforeApplicationShutdown(), b.beforeApplicationShutdown()]);
    expect(await counter(clientId)).toBe(10_000);
  });

  it('takes a block far from the limit, counts in memory, and gives the unused part back on shutdown', async () => {
    const leases = replica();
    const clientId = randomUUID();
    const client = { clientId, period, periodEnd, quota: 1_000_000 };
    for (let i = 0; i < 3; i++) expect(await leases.take(client, 1)).not.toBeNull();
    // One statement took a block larger than the request; the next requests needed none.
    const leased = await counter(clientId);
    expect(leased).toBeGreaterThan(3);
    expect(await leases.answered(clientId, period)).toBe(3);
    // A failed screening gives its name back to the block, not to the database.
    leases.giveBack(client, 1);
    expect(await leases.answered(clientId, period)).toBe(2);
    await leases.beforeApplicationShutdown();
    expect(await counter(clientId)).toBe(2);
    const { rows } = await sql.query(`SELECT * FROM "${schema}".quota_leases WHERE client_id = $1`, [clientId]);
    expect(rows).toEqual([]);
  });

  it('refuses a bulk request that does not fit but grants a smaller one that does, near the limit', async () => {
    const leases = replica();
    const clientId = randomUUID();
    const client = { clientId, period, periodEnd, quota: 6 };
    expect(await leases.take(client, 3)).toEqual({ before: 0, total: 3 });
    const [two, four, one] = await Promise.all([
      leases.take(client, 2),
      leases.take(client, 4),
      leases.take(client, 1),
    ]);
    expect(four).toBeNull();
    expect(two).not.toBeNull();
    expect(one).not.toBeNull();
    expect(await counter(clientId)).toBe(6);
    await leases.beforeApplicationShutdown();
    expect(await counter(clientId)).toBe(6);
  });

  it('serves requests caught by a quota change under a new lease instead of refusing them', async () => {
    const leases = replica();
    const clientId = randomUUID();
    const before = { clientId, period, periodEnd, quota: 1_000 };
    const after = { ...before, quota: 2_000 };
    // An upgrade lands while requests judged against the old quota are still waiting for their block.
    const answers = await Promise.all([
      leases.take(before, 1),
      leases.take(before, 1),
      leases.take(after, 1),
      leases.take(after, 1),
    ]);
    expect(answers.every((a) => a !== null)).toBe(true);
    await leases.beforeApplicationShutdown();
    expect(await counter(clientId)).toBe(4);
  });

  it('reclaims an expired lease of a vanished replica, keeping what it promised', async () => {
    const dead = replica();
    const clientId = randomUUID();
    const client = { clientId, period, periodEnd, quota: 1_000_000 };
    expect(await dead.take(client, 1)).not.toBeNull();
    const leased = await counter(clientId);
    expect(leased).toBeGreaterThan(1);
    // The dead replica never renews or returns it (no shutdown hook runs); a live one reclaims it after the TTL.
    await new Promise((r) => setTimeout(r, 1_500));
    const { rows } = await sql.query<{ promised: number; granted: number }>(
      `SELECT promised, granted FROM "${schema}".quota_leases WHERE client_id = $1`,
      [clientId],
    );
    expect(rows[0]!.granted).toBe(leased);
    const live = replica();
    expect(await live.take({ ...client, clientId: randomUUID() }, 1)).not.toBeNull();
    await new QuotaLeasesRepository(databases.at(-1)!).reclaimExpired();
    expect(await counter(clientId)).toBe(rows[0]!.promised);
    expect(rows[0]!.promised).toBeGreaterThanOrEqual(1);
    await live.beforeApplicationShutdown();
  });
});
