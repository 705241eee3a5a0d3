import type { HealthIndicator } from './health.js';
import { DataSource, type DataSourceOptions, type MixedList } from 'typeorm';

export type SchemaOptions = {
  databaseUrl: string;
  /** The Postgres schema this service owns; tests pass a unique one per file. */
  schema: string;
  // TypeORM types entity and migration classes as bare constructors.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities?: MixedList<Function>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function>;
};

export function dataSourceOptions(options: SchemaOptions): DataSourceOptions {
  return {
    type: 'postgres',
    url: options.databaseUrl,
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
  const dataSource = new DataSource(dataSourceOptions(options));
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
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
