// `npm run audit:verify` runs this (after finding the database `npm start` uses): walks every
// audit chain and exits 1 naming the first row whose hash does not match, 0 when all hold.
import { createDatabase, loadConfigOrExit } from '@vigil/platform';
import { envSchema } from './env.js';
import { describeBadRow, verifyTrail } from './trail/chain-verifier.js';

const config = loadConfigOrExit('audit', envSchema);
// As DATABASE_URL's user, as the migrations run: verifying reads every chain, whatever the service's role.
const db = createDatabase({
  databaseUrl: config.DATABASE_URL,
  schema: config.DB_SCHEMA,
  role: null,
  name: '-verify',
  max: 1,
  settings: { TimeZone: 'UTC' },
});
try {
  const started = performance.now();
  const result = await verifyTrail(db);
  const seconds = (performance.now() - started) / 1000;
  const rate = Math.round(result.rows / Math.max(seconds, 1e-6));
  if (!result.ok) {
    process.stderr.write(`audit:verify: FAILED at ${describeBadRow(result.bad)}\n`);
    process.stderr.write(`audit:verify: ${result.rows} rows verified before it (${rate} rows/s)\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write(
      `audit:verify: OK: ${result.rows} rows in ${result.chains} chains of schema "${config.DB_SCHEMA}" verified in ${seconds.toFixed(2)} s (${rate} rows/s)\n`,
    );
  }
} catch (error) {
  process.stderr.write(`audit:verify: could not verify: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
} finally {
  await db.close().catch(() => undefined);
}
