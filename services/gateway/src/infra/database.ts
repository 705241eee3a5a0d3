import { createDatabase, migrationTarget, runMigrations } from '@vigil/platform';
import { migrations } from '../../migrations/index.js';
import type { GatewayConfig } from '../env.js';

/** Boot-time migrations for `npm start`; an advisory lock keeps concurrent replicas from racing. */
export async function migrateWithLock(config: Readonly<GatewayConfig>): Promise<void> {
  // As the migration role (the schema's owner; see migrationTarget), on one connection held while
  // the migrations run. Deployments that give the gateway only its own role run migrate.js instead.
  const target = migrationTarget(config);
  const db = createDatabase({
    databaseUrl: target.databaseUrl,
    schema: config.DB_SCHEMA,
    role: null,
    name: '-migrate',
    max: 1,
  });
  try {
    await db.session(async (connection) => {
      await connection.query(`SELECT pg_advisory_lock(hashtext($1))`, [`vigil-migrate-${config.DB_SCHEMA}`]);
      await runMigrations({ ...target, schema: config.DB_SCHEMA, migrations });
    });
  } finally {
    await db.close();
  }
}
