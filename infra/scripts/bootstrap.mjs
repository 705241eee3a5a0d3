// Steps shared by `npm start` and `npm test` that must run before any
// dependency exists: only Node built-ins are imported here.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function log(message) {
  process.stdout.write(`\x1b[36m[vigil]\x1b[0m ${message}\n`);
}

export function fail(message) {
  process.stderr.write(`\x1b[31m[vigil]\x1b[0m ${message}\n`);
  process.exit(1);
}

export function checkNodeVersion() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    fail(`Node ${process.versions.node} is too old: Vigil needs Node >= 20.19 (https://nodejs.org).`);
  }
}

/** Runs a command in the repo root, inheriting stdio; exits the script if it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...options.env } });
  if (result.status !== 0) {
    if (options.allowFailure) return result.status ?? 1;
    fail(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal}).`);
  }
  return 0;
}

/** `npm ci` when node_modules is missing or the lock file changed since the last install. */
export function ensureInstalled() {
  const lock = join(ROOT, 'package-lock.json');
  const stamp = join(ROOT, 'node_modules', '.vigil-lock-sha256');
  const want = createHash('sha256').update(readFileSync(lock)).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return;
  log('Installing dependencies (npm ci)...');
  run('npm', ['ci', '--no-audit', '--no-fund']);
  writeFileSync(stamp, want);
}

/** Nx builds every package in dependency order; cached outputs make repeat runs fast. */
export function build() {
  log('Building...');
  run('npx', ['nx', 'run-many', '-t', 'build', '--outputStyle=static'], { env: nxEnv() });
}

export function nxEnv() {
  return { NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', NX_SKIP_NX_CACHE: process.env.NX_SKIP_NX_CACHE ?? '' };
}
