import { createDatabase, runMigrations } from '@vigil/platform';
import { migrations } from '../../migrations/index.js';
import type { GatewayConfig } from '../env.js';

/** Boot-time migrations for `npm start`; an advisory lock keeps concurrent replicas from racing. */
export async function migrateWithLock(config: Readonly<GatewayConfig>): Promise<void> {
  // As DATABASE_URL's user (the schema's owner), on one connection held while the migrations run.
  const db = createDatabase({ databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA, role: null, name: '-migrate', max: 1 });
  try {
    await db.session(async (connection) => {
      await connection.query(`SELECT pg_advisory_lock(hashtext($1))`, [`vigil-migrate-${config.DB_SCHEMA}`]);
      await runMigrations({ databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA, migrations });
    });
  } finally {
    await db.close();
  }
}
