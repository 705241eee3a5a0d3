// The Database port against the real Postgres: what every service's repositories rely on.
import { randomUUID } from 'node:crypto';
import { createDatabase, runMigrations, type Database } from '../src/database.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vigil_test';
const schema = `t${randomUUID().replaceAll('-', '').slice(0, 10)}_platform`;

class CreateItems1700000000000 {
  name = 'CreateItems1700000000000';
  async up(runner: { query: (text: string) => Promise<unknown> }) {
    await runner.query(`CREATE TABLE items (id int PRIMARY KEY, label text NOT NULL)`);
  }
  async down(runner: { query: (text: string) => Promise<unknown> }) {
    await runner.query(`DROP TABLE items`);
  }
}

let db: Database;
let owner: Database;

beforeAll(async () => {
  await runMigrations({ databaseUrl: DATABASE_URL, schema, migrations: [CreateItems1700000000000] });
  db = createDatabase({ databaseUrl: DATABASE_URL, schema });
  owner = createDatabase({ databaseUrl: DATABASE_URL, schema, role: null, max: 1 });
});

afterAll(async () => {
  await db?.close();
  await owner?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await owner?.close();
});

beforeEach(() => db.query('TRUNCATE items'));

describe('Database', () => {
  it('connects as the service role, pinned to its schema', async () => {
    const [me] = await db.query<{ user: string; path: string }>('SELECT current_user AS user, current_setting($1) AS path', [
      'search_path',
    ]);
    expect(me).toEqual({ user: 'vigil_platform', path: `"${schema}"` });
  });

  it('answers the rows of UPDATE … RETURNING and the count of a plain DELETE', async () => {
    await db.query('INSERT INTO items VALUES (1, $1), (2, $1), (3, $2)', ['a', 'b']);
    const renamed = await db.query<{ id: number }>(`UPDATE items SET label = 'c' WHERE label = 'a' RETURNING id`);
    expect(renamed.map((r) => r.id).sort()).toEqual([1, 2]);
    const { rows, rowCount } = await db.execute(`DELETE FROM items WHERE label = 'c'`);
    expect({ rows, rowCount }).toEqual({ rows: [], rowCount: 2 });
  });

  it('runs a named statement again with other values', async () => {
    for (const id of [1, 2]) await db.query('INSERT INTO items VALUES ($1, $2)', [id, `n${id}`], 'platform-test-insert');
    expect(await db.query('SELECT id, label FROM items ORDER BY id')).toEqual([
      { id: 1, label: 'n1' },
      { id: 2, label: 'n2' },
    ]);
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    await db.transaction((tx) => tx.query(`INSERT INTO items VALUES (1, 'kept')`));
    const failure = db.transaction(async (tx) => {
      await tx.query(`INSERT INTO items VALUES (2, 'lost')`);
      throw new Error('abort');
    });
    await expect(failure).rejects.toThrow('abort');
    expect(await db.query('SELECT id FROM items')).toEqual([{ id: 1 }]);
  });

  it('passes a failed statement’s Postgres code through', async () => {
    await db.query(`INSERT INTO items VALUES (1, 'a')`);
    await expect(db.query(`INSERT INTO items VALUES (1, 'b')`)).rejects.toMatchObject({ code: '23505' });
  });

  it('opens the transaction at the isolation level asked for', async () => {
    const level = await db.transaction(
      (tx) => tx.query<{ level: string }>(`SELECT current_setting('transaction_isolation') AS level`),
      'REPEATABLE READ',
    );
    expect(level).toEqual([{ level: 'repeatable read' }]);
  });

  it('holds one connection through a session, so session state carries over', async () => {
    const pids = await db.session(async (connection) => {
      const a = await connection.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const b = await connection.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      return [a[0]!.pid, b[0]!.pid];
    });
    expect(pids[0]).toBe(pids[1]);
  });

  it('survives the server dropping a connection held between two statements of a transaction or a session', async () => {
    // The drop lands while the work awaits something else (as the outbox relay awaits its
    // publishes): without a listener on the checked-out client, its 'error' event would be
    // unhandled and end the process (and this test run).
    const kill = (pid: number) => owner.query('SELECT pg_terminate_backend($1)', [pid]);
    const dropped = async (connection: { query: Database['query'] }) => {
      const [me] = await connection.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await kill(me!.pid);
      await new Promise((r) => setTimeout(r, 200));
      await connection.query('SELECT 1');
    };
    await expect(db.transaction(dropped)).rejects.toThrow();
    await expect(db.session(dropped)).rejects.toThrow();
    // The dropped connections were not handed back: the pool answers on fresh ones.
    expect(await db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('applies extra session settings', async () => {
    const async = createDatabase({ databaseUrl: DATABASE_URL, schema, max: 1, settings: { synchronous_commit: 'off' } });
    try {
      expect(await async.query(`SELECT current_setting('synchronous_commit') AS value`)).toEqual([{ value: 'off' }]);
    } finally {
      await async.close();
    }
  });
});
