// `npm run audit:verify` and `npm run audit:retention` from the repository root: on the database
// `npm start` uses (DATABASE_URL when it answers, else the embedded Postgres in .vigil/postgres,
// started for the run if it is not running), in schema DB_SCHEMA (default audit).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const command = process.argv[2];
const scripts = { verify: 'verify.js', retention: 'retention-run.js' };
if (!scripts[command]) {
  process.stderr.write('usage: audit-cli.mjs verify|retention\n');
  process.exit(64);
}
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(packageDir, '..', '..');
const script = join(packageDir, 'dist', 'src', scripts[command]);
if (!existsSync(script)) {
  const built = spawnSync('npx', ['nx', 'run', '@vigil/audit:build', '--outputStyle=static'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const { ensurePostgres } = await import(join(root, 'infra', 'scripts', 'infrastructure.mjs'));
const postgres = await ensurePostgres();
const result = spawnSync(process.execPath, [script], {
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: postgres.url },
});
await postgres.stop();
process.exit(result.status ?? 1);
