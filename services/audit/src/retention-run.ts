// `npm run audit:retention`: applies the retention setting once and prints what it removed.
import { loadConfigOrExit } from '@vigil/platform';
import pg from 'pg';
import { envSchema } from './env.js';
import { applyRetention } from './retention/retention.js';

const config = loadConfigOrExit('audit', envSchema);
const client = new pg.Client({ connectionString: config.DATABASE_URL, application_name: 'vigil-audit-retention' });
try {
  await client.connect();
  await client.query(`SET search_path = "${config.DB_SCHEMA}"`);
  await client.query('BEGIN');
  const outcome = await applyRetention(async (text, params) => (await client.query(text, params)).rows, {
    screeningDays: config.AUDIT_RETENTION_SCREENING_DAYS,
    securityDays: config.AUDIT_RETENTION_SECURITY_DAYS,
  });
  await client.query('COMMIT');
  process.stdout.write(
    `audit:retention: removed ${outcome.rowsRemoved} rows in ${outcome.segments} segments (checkpoints recorded)\n`,
  );
} catch (error) {
  await client.query('ROLLBACK').catch(() => undefined);
  process.stderr.write(`audit:retention: failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await client.end().catch(() => undefined);
}
