import { Global, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import pg from 'pg';
import { DataSource, type DataSourceOptions, type MixedList } from 'typeorm';
import type { HealthIndicator } from './health.js';

export type SchemaOptions = {
  databaseUrl: string;
  /** The Postgres schema this service owns; tests pass a unique one per file. */
  schema: string;
  /**
   * The login role the service connects as, limited to its schema: `serviceRole(schema)` unless
   * given; null connects as DATABASE_URL's own user (the migrations do, as the schema's owner).
   */
  role?: string | null;
  /**
   * The service role's own password, set on every run (so a rotated Secret takes effect at the
   * next migration). Unset: a role that does not exist yet gets DATABASE_URL's password, an
   * existing one keeps its own (the test harness, on a trust-auth server, works that way).
   */
  servicePassword?: string;
  /**
   * Instead of its schema's rows, the role gets membership of these group roles (made by the
   * migrations) and must SET ROLE to one to do anything: audit's append-only and retention roles.
   */
  memberOf?: readonly string[];
  // TypeORM types entity and migration classes as bare constructors.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities?: MixedList<Function>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function>;
};

/**
 * Each service's own database role: `vigil_` and the service name, the last `_` part of its schema
 * (`auth` and a test's `t1a2b_auth` both give `vigil_auth`), so migrate.js and the service, which
 * read the same DB_SCHEMA, agree on it without another variable.
 */
export function serviceRole(schema: string): string {
  return `vigil_${schema.slice(schema.lastIndexOf('_') + 1)}`;
}

/** DATABASE_URL with the service's role as its user; host, port, database, password and options stay. */
export function roleDatabaseUrl(databaseUrl: string, role: string): string {
  const url = new URL(databaseUrl);
  url.username = encodeURIComponent(role);
  return url.toString();
}

function connectionUrl(options: Pick<SchemaOptions, 'databaseUrl' | 'schema' | 'role'>): string {
  const role = options.role === undefined ? serviceRole(options.schema) : options.role;
  return role === null ? options.databaseUrl : roleDatabaseUrl(options.databaseUrl, role);
}

const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * Creates the service's role if missing (LOGIN, NOINHERIT, no other attribute) and grants it its
 * schema's rows and nothing else: USAGE on the schema (not CREATE: no table, view or function of
 * its own), SELECT/INSERT/UPDATE/DELETE/TRUNCATE on its tables (not REFERENCES or TRIGGER, which
 * reach into DDL), its sequences. PUBLIC has no USAGE on another service's schema, so the role
 * cannot read it. Run as the schema's owner (the migration
 * role) after every migration run, so new tables are granted too.
 */
async function grantServiceRole(
  owner: DataSource,
  schema: string,
  role: string,
  password: { value: string; always: boolean } | undefined,
  memberOf: readonly string[] | undefined,
): Promise<void> {
  for (const name of [role, ...(memberOf ?? [])])
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`Refusing unsafe role name "${name}"`);
  const grant = () =>
    owner.transaction(async (tx) => {
      // Serialises runs in this database; roles are cluster-wide, so a run in another database may
      // still race on them (the duplicate is tolerated, a concurrent ALTER is retried below).
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`vigil.role:${role}`]);
      const [me] = (await tx.query(`SELECT current_user AS name`)) as { name: string }[];
      if (me?.name === role) return;
      const passwordClause = password ? ` PASSWORD ${literal(password.value)}` : '';
      await tx.query(
        `DO $$ BEGIN CREATE ROLE "${role}" LOGIN NOINHERIT${passwordClause}; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`,
      );
      if (password?.always) await tx.query(`ALTER ROLE "${role}" WITH LOGIN PASSWORD ${literal(password.value)}`);
      await tx.query(`GRANT USAGE ON SCHEMA "${schema}" TO "${role}"`);
      await tx.query(`REVOKE CREATE ON SCHEMA "${schema}" FROM "${role}"`);
      if (memberOf) {
        // NOINHERIT: the group roles' rights hold only after SET ROLE, and the login role has none of its own.
        await tx.query(`GRANT ${memberOf.map((name) => `"${name}"`).join(', ')} TO "${role}"`);
        return;
      }
      await tx.query(`GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON ALL TABLES IN SCHEMA "${schema}" TO "${role}"`);
      // Earlier versions granted these; a migration run takes them back.
      await tx.query(`REVOKE REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA "${schema}" FROM "${role}"`);
      await tx.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA "${schema}" TO "${role}"`);
    });
  for (let attempt = 1; ; attempt++) {
    try {
      return await grant();
    } catch (error) {
      if (attempt >= 3 || !/concurrently (updated|deleted)/.test((error as Error).message)) throw error;
    }
  }
}

function dataSourceOptions(options: SchemaOptions): DataSourceOptions {
  return {
    type: 'postgres',
    url: connectionUrl(options),
    schema: options.schema,
    entities: options.entities ?? [],
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    // Schema changes happen only through reviewed migrations.
    synchronize: false,
    migrationsRun: false,
    logging: ['error'],
    // search_path pins unqualified SQL (migrations, raw queries) to this service's schema.
    extra: { max: 10, application_name: `vigil-${options.schema}`, options: `-c search_path="${options.schema}"` },
  };
}

/**
 * Creates the schema if needed and applies pending migrations, each in its own
 * transaction, so a failed migration leaves the earlier ones applied and the
 * failing one not at all.
 */
export async function runMigrations(options: SchemaOptions): Promise<string[]> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(options.schema)) {
    throw new Error(`Refusing unsafe schema name "${options.schema}"`);
  }
  const bootstrap = new DataSource({ type: 'postgres', url: options.databaseUrl, synchronize: false });
  await bootstrap.initialize();
  try {
    await bootstrap.query(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"`);
  } finally {
    await bootstrap.destroy();
  }
  // The migrations run as DATABASE_URL's user, who owns the schema; the service connects as its role.
  const dataSource = new DataSource(dataSourceOptions({ ...options, role: null }));
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    const role = options.role === undefined ? serviceRole(options.schema) : options.role;
    if (role !== null) {
      const ownerPassword = decodeURIComponent(new URL(options.databaseUrl).password);
      const password = options.servicePassword
        ? { value: options.servicePassword, always: true }
        : ownerPassword
          ? { value: ownerPassword, always: false }
          : undefined;
      await grantServiceRole(dataSource, options.schema, role, password, options.memberOf);
    }
    return applied.map((m) => m.name);
  } finally {
    await dataSource.destroy();
  }
}

export type Row = Record<string, unknown>;

/** A statement's rows and how many rows it touched (an UPDATE or DELETE without RETURNING has no rows). */
export type QueryResult<T> = { rows: T[]; rowCount: number };

/**
 * What a repository runs SQL through: the service's pool, or the transaction it was handed, so
 * one repository method serves both. `name` makes the statement a prepared one: each pooled
 * connection parses and plans it once, worth it only for the hottest statements.
 */
export type Queryable = {
  /** The rows a SELECT, or an INSERT/UPDATE/DELETE … RETURNING, answers. */
  query<T = Row>(text: string, params?: readonly unknown[], name?: string): Promise<T[]>;
  /** The rows and the affected-row count, for statements whose count is the answer. */
  execute<T = Row>(text: string, params?: readonly unknown[], name?: string): Promise<QueryResult<T>>;
};

/** A transaction's connection: statements on it commit together or not at all. */
export type Transaction = Queryable;

export type IsolationLevel = 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';

/**
 * The one way a service reaches Postgres: a pool pinned to its schema, connected as its role.
 * Abstract so that it is the Nest injection token and no repository names the driver.
 */
export abstract class Database implements Queryable {
  abstract query<T = Row>(text: string, params?: readonly unknown[], name?: string): Promise<T[]>;
  abstract execute<T = Row>(text: string, params?: readonly unknown[], name?: string): Promise<QueryResult<T>>;
  /** Runs `work` in one transaction: committed if it resolves, rolled back (and rethrown) if it throws. */
  abstract transaction<T>(work: (tx: Transaction) => Promise<T>, isolation?: IsolationLevel): Promise<T>;
  /** Holds one connection for `work`, for session state such as a session-level advisory lock. */
  abstract session<T>(work: (connection: Queryable) => Promise<T>): Promise<T>;
  abstract close(): Promise<void>;
}

export type DatabaseOptions = {
  databaseUrl: string;
  schema: string;
  /** As in SchemaOptions: `serviceRole(schema)` unless given; null connects as DATABASE_URL's user. */
  role?: string | null;
  /** Appended to `vigil-<schema>` as the connections' application_name, to tell pools apart. */
  name?: string;
  /** Pool size; 10 unless given. */
  max?: number;
  /** Extra session settings (`-c key=value`), e.g. synchronous_commit for a write-behind pool. */
  settings?: Readonly<Record<string, string>>;
};

function queryConfig(text: string, params: readonly unknown[], name: string | undefined): pg.QueryConfig {
  return name ? { name, text, values: params as unknown[] } : { text, values: params as unknown[] };
}

function queryableOn(client: pg.PoolClient): Queryable {
  return {
    query: async <T>(text: string, params: readonly unknown[] = [], name?: string) =>
      (await client.query(queryConfig(text, params, name))).rows as T[],
    execute: async <T>(text: string, params: readonly unknown[] = [], name?: string) => {
      const result = await client.query(queryConfig(text, params, name));
      return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
    },
  };
}

/** The Database over a node-postgres pool: each statement is one round trip, nothing wraps it. */
class PgDatabase extends Database implements OnApplicationShutdown {
  private closed = false;

  constructor(private readonly pool: pg.Pool) {
    super();
  }

  async query<T = Row>(text: string, params: readonly unknown[] = [], name?: string): Promise<T[]> {
    return (await this.pool.query(queryConfig(text, params, name))).rows as T[];
  }

  async execute<T = Row>(text: string, params: readonly unknown[] = [], name?: string): Promise<QueryResult<T>> {
    const result = await this.pool.query(queryConfig(text, params, name));
    return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
  }

  async transaction<T>(work: (tx: Transaction) => Promise<T>, isolation?: IsolationLevel): Promise<T> {
    const { client, release } = await this.checkOut();
    let broken = false;
    try {
      await client.query(isolation ? `BEGIN ISOLATION LEVEL ${isolation}` : 'BEGIN');
      const result = await work(queryableOn(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // A connection that cannot even roll back is dropped rather than handed to the next caller.
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      release(broken);
    }
  }

  async session<T>(work: (connection: Queryable) => Promise<T>): Promise<T> {
    const { client, release } = await this.checkOut();
    try {
      return await work(queryableOn(client));
    } finally {
      release(false);
    }
  }

  /**
   * A connection taken from the pool for a transaction or a session. While it is out the pool no
   * longer listens for its 'error' event, and a connection the server drops between two
   * statements (a restart while the work awaits something else, e.g. a publish) emits one with
   * no query to fail: unheard, it crashes the process. Heard here, the next statement fails
   * instead, and the connection is destroyed on release rather than handed to the next caller.
   */
  private async checkOut(): Promise<{ client: pg.PoolClient; release: (broken: boolean) => void }> {
    const client = await this.pool.connect();
    let dropped: Error | undefined;
    const onError = (error: Error) => {
      dropped = error;
    };
    client.on('error', onError);
    const release = (broken: boolean) => {
      client.removeListener('error', onError);
      client.release(dropped ?? broken);
    };
    return { client, release };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}

/** A pool pinned to `schema` (search_path), connected as the service's role; it connects lazily. */
export function createDatabase(options: DatabaseOptions): Database {
  const settings = Object.entries(options.settings ?? {})
    .map(([key, value]) => ` -c ${key}=${value}`)
    .join('');
  const pool = new pg.Pool({
    connectionString: connectionUrl(options),
    max: options.max ?? 10,
    application_name: `vigil-${options.schema}${options.name ?? ''}`,
    // search_path pins unqualified SQL to this service's schema.
    options: `-c search_path="${options.schema}"${settings}`,
  });
  // An idle connection dropped by the server (restart, failover) is an 'error' event on the pool;
  // unheard, it would crash the process. The pool replaces the client on the next query.
  pool.on('error', (error) =>
    process.stderr.write(`[vigil-${options.schema}${options.name ?? ''}] postgres pool: ${error.message}\n`),
  );
  return new PgDatabase(pool);
}

/**
 * Provides the service's `Database` to every module. The pool is tried once at boot (after the
 * bootstrap has waited for Postgres, see waitForDatabaseOrExit), so a service that still cannot
 * reach it, e.g. as its own role, fails to start rather than answering its first request with an error.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseOptions): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        {
          provide: Database,
          useFactory: async () => {
            const database = createDatabase(options);
            await database.query('SELECT 1');
            return database;
          },
        },
      ],
      exports: [Database],
    };
  }
}

export function databaseHealth(database: Database): HealthIndicator {
  return {
    name: 'database',
    check: async () => {
      const started = performance.now();
      await database.query('SELECT 1');
      return { status: 'up', latencyMs: Math.round((performance.now() - started) * 10) / 10 };
    },
  };
}
