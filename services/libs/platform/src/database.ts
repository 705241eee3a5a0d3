import type { HealthIndicator } from './health.js';
import { DataSource, type DataSourceOptions, type MixedList } from 'typeorm';

export type SchemaOptions = {
  databaseUrl: string;
  /** The Postgres schema this service owns; tests pass a unique one per file. */
  schema: string;
  /**
   * The login role the service connects as, limited to its schema: `serviceRole(schema)` unless
   * given; null connects as DATABASE_URL's own user (the migrations do, as the schema's owner).
   */
  role?: string | null;
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

function connectionUrl(options: SchemaOptions): string {
  const role = options.role === undefined ? serviceRole(options.schema) : options.role;
  return role === null ? options.databaseUrl : roleDatabaseUrl(options.databaseUrl, role);
}

/**
 * Creates the service's role if missing (LOGIN, with DATABASE_URL's password, if any) and grants it
 * its schema and everything in it, nothing else: PUBLIC has no USAGE on another service's schema, so
 * the role cannot read it. Run as the schema's owner after every migration run, so new tables are
 * granted too. The role's password is set only when it is created.
 */
async function grantServiceRole(
  owner: DataSource,
  schema: string,
  role: string,
  password: string | undefined,
): Promise<void> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(role)) throw new Error(`Refusing unsafe role name "${role}"`);
  await owner.transaction(async (tx) => {
    // Roles are cluster-wide: parallel runs (other schemas, other databases) may create it at once.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`vigil.role:${role}`]);
    const [me] = (await tx.query(`SELECT current_user AS name`)) as { name: string }[];
    if (me?.name === role) return;
    const passwordClause = password ? ` PASSWORD '${password.replace(/'/g, "''")}'` : '';
    await tx.query(
      `DO $$ BEGIN CREATE ROLE "${role}" LOGIN${passwordClause}; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`,
    );
    await tx.query(`GRANT USAGE ON SCHEMA "${schema}" TO "${role}"`);
    await tx.query(
      `GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA "${schema}" TO "${role}"`,
    );
    await tx.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA "${schema}" TO "${role}"`);
  });
}

export function dataSourceOptions(options: SchemaOptions): DataSourceOptions {
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
      const password = new URL(options.databaseUrl).password;
      await grantServiceRole(dataSource, options.schema, role, password ? decodeURIComponent(password) : undefined);
    }
    return applied.map((m) => m.name);
  } finally {
    await dataSource.destroy();
  }
}

export function databaseHealth(dataSource: DataSource): HealthIndicator {
  return {
    name: 'database',
    check: async () => {
      const started = performance.now();
      await dataSource.query('SELECT 1');
      return { status: 'up', latencyMs: Math.round((performance.now() - started) * 10) / 10 };
    },
  };
}
