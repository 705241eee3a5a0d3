// `npm run audit:retention`: applies the retention setting once and prints what it removed.
import { createDatabase, loadConfigOrExit } from '@vigil/platform';
import { envSchema } from './env.js';
import { applyRetention } from './retention/retention.js';

const config = loadConfigOrExit('audit', envSchema);
const db = createDatabase({ databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA, role: null, name: '-retention', max: 1 });
try {
  const outcome = await db.transaction((tx) =>
    applyRetention((text, params) => tx.query(text, params), {
      screeningDays: config.AUDIT_RETENTION_SCREENING_DAYS,
      securityDays: config.AUDIT_RETENTION_SECURITY_DAYS,
    }),
  );
  process.stdout.write(
    `audit:retention: removed ${outcome.rowsRemoved} rows in ${outcome.segments} segments (checkpoints recorded)\n`,
  );
} catch (error) {
  process.stderr.write(`audit:retention: failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await db.close().catch(() => undefined);
}
