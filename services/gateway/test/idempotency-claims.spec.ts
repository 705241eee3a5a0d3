// The Idempotency-Key claim as the repository holds it, against the real Postgres: an attempt whose
// claim was taken over (its replica stalled past the takeover time, and a retry took the record)
// can no longer complete or delete the record, so the taker's answer is the one every later retry
// gets. The takeover is staged by ageing the row's last renewal, as a stalled heartbeat leaves it.
// Also the claims migration's down(): a revert gives back the table it found.
import { jest } from '@jest/globals';
import { createDatabase, parseConfig, runMigrations, type Database } from '@vigil/platform';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { migrations } from '../migrations/index.js';
import { envSchema } from '../src/env.js';
import { IdempotencyRepository, type Claim, type StoredResponse } from '../src/idempotency/idempotency.repository.js';
import { testEnv } from './stack.js';

jest.setTimeout(60_000);

const newSchema = () => `t${randomUUID().replaceAll('-', '').slice(0, 10)}_gateway`;
const schema = newSchema();
const schemas = [schema];
const config = parseConfig(envSchema, { ...testEnv, DB_SCHEMA: schema });
let db: Database;
let sql: pg.Client;
let records: IdempotencyRepository;

const answer = (screeningId: string): StoredResponse => ({
  status: 200,
  contentType: 'application/json; charset=utf-8',
  body: Buffer.from(JSON.stringify({ screeningId })),
});

/** What a heartbeat that stopped leaves behind: the last renewal longer ago than the takeover time. */
const stall = (claim: Claim) =>
  sql.query(`UPDATE "${schema}".idempotency_keys SET renewed_at = now() - interval '1 hour' WHERE key = $1`, [
    claim.key,
  ]);

/** A first attempt's claim, then a retry's that took it over once the first stalled. */
async function takenOver(): Promise<{ first: Claim; taker: Claim }> {
  const scope = `client:${randomUUID()}`;
  const key = randomUUID();
  const first = await records.claim(scope, key, 'fingerprint');
  expect(first).not.toBeNull();
  expect(await records.claim(scope, key, 'fingerprint')).toBeNull();
  await stall(first!);
  const taker = await records.claim(scope, key, 'fingerprint');
  expect(taker).not.toBeNull();
  return { first: first!, taker: taker! };
}

beforeAll(async () => {
  await runMigrations({ databaseUrl: testEnv.DATABASE_URL, schema, migrations });
  db = createDatabase({ databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA });
  records = new IdempotencyRepository(db, config);
  sql = new pg.Client({ connectionString: testEnv.DATABASE_URL });
  await sql.connect();
});

afterAll(async () => {
  await db?.close();
  for (const s of schemas) await sql?.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  await sql?.end();
});

describe('an Idempotency-Key claim that was taken over', () => {
  it('stores nothing when its first attempt completes: the taker’s answer is the one replayed', async () => {
    const { first, taker } = await takenOver();

    await records.complete(first, answer('first'));
    // The taker is still running: a retry now waits for it rather than replaying the first answer.
    expect(await records.find(taker.scope, taker.key)).toMatchObject({ state: 'pending', response: null });

    await records.complete(taker, answer('taker'));
    const record = await records.find(taker.scope, taker.key);
    expect(record).toMatchObject({ state: 'done', response: { status: 200 } });
    expect(JSON.parse(record!.response!.body.toString())).toEqual({ screeningId: 'taker' });
  });

  it('is not deleted when its first attempt fails: the taker still completes it', async () => {
    const { first, taker } = await takenOver();

    await records.abandon(first);
    expect(await records.find(taker.scope, taker.key)).toMatchObject({ state: 'pending', response: null });

    await records.complete(taker, answer('taker'));
    const record = await records.find(taker.scope, taker.key);
    expect(JSON.parse(record!.response!.body.toString())).toEqual({ screeningId: 'taker' });
  });

  it('is not renewed by its first attempt’s heartbeat', async () => {
    const { first, taker } = await takenOver();
    await stall(taker);

    await records.renew([first]);
    expect((await records.find(taker.scope, taker.key))!.sinceRenewalMs).toBeGreaterThan(
      config.IDEMPOTENCY_CLAIM_TAKEOVER_MS,
    );
    await records.renew([taker]);
    expect((await records.find(taker.scope, taker.key))!.sinceRenewalMs).toBeLessThan(
      config.IDEMPOTENCY_CLAIM_TAKEOVER_MS,
    );
  });
});

describe('the claims migration', () => {
  type Column = { column_name: string; data_type: string; is_nullable: string; column_default: string | null };
  const columns = async (s: string) =>
    (
      await sql.query<Column>(
        `SELECT column_name, data_type, is_nullable, column_default FROM information_schema.columns
         WHERE table_schema = $1 AND table_name = 'idempotency_keys' ORDER BY column_name`,
        [s],
      )
    ).rows;
  const indexes = async (s: string) =>
    (
      await sql.query<{ indexdef: string }>(
        `SELECT replace(indexdef, $1, '') AS indexdef FROM pg_indexes
         WHERE schemaname = $2 AND tablename = 'idempotency_keys' ORDER BY indexdef`,
        [`${s}.`, s],
      )
    ).rows;

  it('reverts to the table before it, keeping the records, and applies again', async () => {
    const before = newSchema();
    const reverted = newSchema();
    schemas.push(before, reverted);
    await runMigrations({ databaseUrl: testEnv.DATABASE_URL, schema: before, migrations: migrations.slice(0, -1) });
    await runMigrations({ databaseUrl: testEnv.DATABASE_URL, schema: reverted, migrations });
    await sql.query(
      `INSERT INTO "${reverted}".idempotency_keys (scope, key, fingerprint, state, claim) VALUES ('client:a', 'k', 'f', 'pending', $1)`,
      [randomUUID()],
    );

    // As `typeorm migration:revert` runs it: the last migration's down(), its row taken out.
    const source = new DataSource({
      type: 'postgres',
      url: testEnv.DATABASE_URL,
      schema: reverted,
      migrations,
      migrationsTableName: 'migrations',
      extra: { options: `-c search_path="${reverted}"` },
    });
    await source.initialize();
    try {
      await source.undoLastMigration({ transaction: 'each' });
    } finally {
      await source.destroy();
    }

    expect(await columns(reverted)).toEqual(await columns(before));
    expect(await indexes(reverted)).toEqual(await indexes(before));
    const names = async (s: string) =>
      (await sql.query<{ name: string }>(`SELECT name FROM "${s}".migrations ORDER BY id`)).rows;
    expect(await names(reverted)).toEqual(await names(before));
    expect((await sql.query(`SELECT key FROM "${reverted}".idempotency_keys`)).rows).toEqual([{ key: 'k' }]);

    expect(await runMigrations({ databaseUrl: testEnv.DATABASE_URL, schema: reverted, migrations })).toEqual([
      'IdempotencyClaims1764500000000',
    ]);
    expect(await columns(reverted)).toEqual(await columns(schema));
  });
});
