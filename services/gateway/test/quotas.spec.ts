// Quota leases against the real Postgres, two replicas in one process (each its own pool and
// holder): blocks are counted before they are used, so however the callers race and whichever
// replica they reach, the count never passes the quota; each lease is settled to the screens
// answered under it. Screening's part (logging each screen under its lease, counting them) is
// played here by `Answers`, a record of the tickets the test answered; quota-leases.spec.ts runs
// the same settlement against the real screening service and killed gateway processes.
import { jest } from '@jest/globals';
import { createDatabase, parseConfig, runMigrations, type Database } from '@vigil/platform';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { migrations } from '../migrations/index.js';
import { envSchema } from '../src/env.js';
import type { LeaseAnswers } from '../src/quotas/lease-answers.js';
import { QuotaLeasesRepository, SETTLE_GRACE_SECONDS } from '../src/quotas/quota-leases.repository.js';
import { QuotaLeases, type Taken } from '../src/quotas/quota-leases.service.js';
import { testEnv } from './stack.js';

jest.setTimeout(60_000);

const schema = `t${randomUUID().replaceAll('-', '').slice(0, 10)}_gateway`;
const config = parseConfig(envSchema, { ...testEnv, DB_SCHEMA: schema, QUOTA_LEASE_TTL_SECONDS: '1' });
const period = '2026-11-01T00:00:00.000Z';
const periodEnd = '2099-01-01T00:00:00.000Z';
const databases: Database[] = [];
let sql: pg.Client;

/** What screening would have logged: the names answered under each lease. */
class Answers implements LeaseAnswers {
  private readonly logged = new Map<string, number>();

  /** Screening answered the request (logged under its lease). */
  answer(replica: QuotaLeases, taken: Taken | null) {
    expect(taken).not.toBeNull();
    const id = taken!.ticket.quotaLease.id;
    this.logged.set(id, (this.logged.get(id) ?? 0) + taken!.ticket.amount);
    replica.end(taken!.ticket, 'answered');
  }

  /** Screening logged it but the answer was lost on the way back: the gateway cannot tell. */
  answerUnseen(replica: QuotaLeases, taken: Taken | null) {
    const id = taken!.ticket.quotaLease.id;
    this.logged.set(id, (this.logged.get(id) ?? 0) + taken!.ticket.amount);
    replica.end(taken!.ticket, 'unknown');
  }

  count(leaseIds: readonly string[]) {
    return Promise.resolve(leaseIds.map((leaseId) => ({ leaseId, answered: this.logged.get(leaseId) ?? 0 })));
  }
}

const answers = new Answers();

function replica(): QuotaLeases {
  const db = createDatabase({ databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA });
  databases.push(db);
  return new QuotaLeases(new QuotaLeasesRepository(db), config, answers);
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
          const replica = i % 2 === 0 ? a : b;
          const taken = await replica.take(client, 1);
          if (taken) {
            answers.answer(replica, taken);
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

  it('takes a block far from the limit, counts in memory, and settles to the answers on shutdown', async () => {
    const leases = replica();
    const clientId = randomUUID();
    const client = { clientId, period, periodEnd, quota: 1_000_000 };
    for (let i = 0; i < 3; i++) answers.answer(leases, await leases.take(client, 1));
    // One statement took a block larger than the request; the next requests needed none.
    const leased = await counter(clientId);
    expect(leased).toBeGreaterThan(3);
    expect(await leases.answered(clientId, period)).toBe(3);
    // A screening refused before it was logged gives its name back to the block, not to the database.
    const refused = await leases.take(client, 1);
    expect(await leases.answered(clientId, period)).toBe(4);
    leases.end(refused!.ticket, 'refused');
    expect(await leases.answered(clientId, period)).toBe(3);
    await leases.beforeApplicationShutdown();
    expect(await counter(clientId)).toBe(3);
    const { rows } = await sql.query(`SELECT * FROM "${schema}".quota_leases WHERE client_id = $1`, [clientId]);
    expect(rows).toEqual([]);
  });

  it('charges a screen logged but unseen, and not one lost before screening, once its answer-by time passed', async () => {
    const leases = replica();
    const clientId = randomUUID();
    const client = { clientId, period, periodEnd, quota: 1_000_000 };
    answers.answer(leases, await leases.take(client, 1, 300));
    // Timed out at the gateway after screening logged it: charged.
    answers.answerUnseen(leases, await leases.take(client, 1, 300));
    // Timed out and never logged (screening never got it): free.
    const lost = await leases.take(client, 1, 300);
    leases.end(lost!.ticket, 'unknown');
    const started = Date.now();
    await leases.beforeApplicationShutdown();
    // Settled only once nothing more could be logged under the lease: its answer-by time and the grace.
    expect(Date.now() - started).toBeGreaterThanOrEqual(SETTLE_GRACE_SECONDS * 1000 - 500);
    expect(await counter(clientId)).toBe(2);
  });

  it('refuses a bulk request that does not fit but grants a smaller one that does, near the limit', async () => {
    const leases = replica();
    const clientId = randomUUID();
    const client = { clientId, period, periodEnd, quota: 6 };
    const three = await leases.take(client, 3);
    expect(three).toMatchObject({ before: 0, total: 3 });
    answers.answer(leases, three);
    const [two, four, one] = await Promise.all([
      leases.take(client, 2),
      leases.take(client, 4),
      leases.take(client, 1),
    ]);
    expect(four).toBeNull();
    answers.answer(leases, two);
    answers.answer(leases, one);
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
    const taken = await Promise.all([
      leases.take(before, 1),
      leases.take(before, 1),
      leases.take(after, 1),
      leases.take(after, 1),
    ]);
    for (const t of taken) answers.answer(leases, t);
    await leases.beforeApplicationShutdown();
    expect(await counter(clientId)).toBe(4);
  });

  it('settles the expired lease of a vanished replica to the screens answered under it', async () => {
    const dead = replica();
    const clientId = randomUUID();
    const client = { clientId, period, periodEnd, quota: 1_000_000 };
    answers.answer(dead, await dead.take(client, 1));
    answers.answerUnseen(dead, await dead.take(client, 1));
    // Reserved, then the replica died before sending it: never answered.
    expect(await dead.take(client, 1)).not.toBeNull();
    const leased = await counter(clientId);
    expect(leased).toBeGreaterThan(3);
    // The dead replica never renews or settles it (no shutdown hook runs); a live one settles it
    // once it expired (1 s) and the grace passed.
    const live = replica();
    expect(await live.settleDue()).toBe(0);
    expect(await counter(clientId)).toBe(leased);
    await new Promise((r) => setTimeout(r, 1_000 + SETTLE_GRACE_SECONDS * 1000 + 200));
    expect(await live.settleDue()).toBe(1);
    expect(await counter(clientId)).toBe(2);
    expect(await live.answered(clientId, period)).toBe(2);
    // Settled once, however many replicas sweep.
    expect(await replica().settleDue()).toBe(0);
    expect(await counter(clientId)).toBe(2);
  });
});
