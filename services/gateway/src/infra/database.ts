import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { roleDatabaseUrl, runMigrations, serviceRole } from '@vigil/platform';
import pg from 'pg';
import { migrations } from '../../migrations/index.js';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';

/**
 * A pool pinned to the gateway's schema; `settings` are extra `-c` options for its sessions. It
 * connects as the gateway's own role (created and granted by its migrations), which can reach
 * no other service's schema: the internet-facing process must not be able to read auth's tables.
 */
function schemaPool(config: GatewayConfig, name: string, max: number, settings = ''): pg.Pool {
  const pool = new pg.Pool({
    connectionString: roleDatabaseUrl(config.DATABASE_URL, serviceRole(config.DB_SCHEMA)),
    max,
    application_name: `vigil-${config.DB_SCHEMA}${name}`,
    options: `-c search_path="${config.DB_SCHEMA}"${settings}`,
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * The gateway's Postgres pools, pinned to its schema. Repositories use plain SQL: every
 * statement here is a single-row upsert or a keyed read on the request path, where an
 * ORM would only add latency.
 */
@Injectable()
export class Database implements OnApplicationShutdown {
  readonly pool: pg.Pool;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.pool = schemaPool(config, '', 10);
  }

  /**
   * `name` makes it a prepared statement: each pooled connection parses and plans it once,
   * which is worth it for the statements run most often (the quota lease statements).
   */
  query<R extends pg.QueryResultRow>(text: string, params: unknown[] = [], name?: string): Promise<pg.QueryResult<R>> {
    return name ? this.pool.query<R>({ name, text, values: params }) : this.pool.query<R>(text, params);
  }

  async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async onApplicationShutdown() {
    await this.pool.end();
  }
}

/** Boot-time migrations for `npm start`; an advisory lock keeps concurrent replicas from racing. */
export async function migrateWithLock(config: Readonly<GatewayConfig>): Promise<void> {
  const client = new pg.Client({ connectionString: config.DATABASE_URL });
  await client.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(hashtext($1))`, [`vigil-migrate-${config.DB_SCHEMA}`]);
    await runMigrations({ databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA, migrations });
  } finally {
    await client.end();
  }
}
