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
  // A test run that hangs (an open handle, a stuck server) must fail, not eat CI's time. coreutils'
  // timeout signals the command's whole process group: spawnSync's own timeout kills only the
  // direct child (npx), and the nx, jest and service processes under it went on running into the
  // next step, on its ports and cores.
  const limited = options.timeoutMs !== undefined;
  const [file, argv] = limited
    ? ['timeout', ['--kill-after=20s', `${Math.ceil(options.timeoutMs / 1000)}s`, command, ...args]]
    : [command, args];
  const result = spawnSync(file, argv, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...options.env } });
  if (limited && (result.status === 124 || result.status === 137))
    log(`${command} ${args.join(' ')} timed out after ${options.timeoutMs / 60_000} min.`);
  if (result.status !== 0) {
    if (options.allowFailure) return result.status ?? 1;
    fail(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal}).`);
  }
  return 0;
}

/**
 * Installs when node_modules is missing or a manifest changed since the last install.
 * `npm install` rather than `npm ci`: the lock file cannot list other platforms'
 * optional binaries (nx, rollup, argon2 …) when the registry mirror it was written
 * against lacks them, and `npm ci` rejects such a lock; `npm install` still honours
 * every version it pins.
 */
export function ensureInstalled() {
  const stamp = join(ROOT, 'node_modules', '.vigil-install-sha256');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === manifestsHash()) return;
  log('Installing dependencies (npm install)...');
  run('npm', ['install', '--no-audit', '--no-fund']);
  // Hash after the install: npm may have rewritten the lock file.
  writeFileSync(stamp, manifestsHash());
}

function manifestsHash() {
  const hash = createHash('sha256');
  for (const file of ['package-lock.json', 'package.json', ...workspaceManifests()]) {
    if (existsSync(join(ROOT, file))) hash.update(readFileSync(join(ROOT, file)));
  }
  return hash.digest('hex');
}

function workspaceManifests() {
  const { workspaces = [] } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  return workspaces.map((w) => join(w, 'package.json'));
}

/** Nx builds every package in dependency order; cached outputs make repeat runs fast. */
export function build() {
  log('Building...');
  run('npx', ['nx', 'run-many', '-t', 'build', '--outputStyle=static'], { env: nxEnv() });
}

export function nxEnv() {
  return { NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', NX_SKIP_NX_CACHE: process.env.NX_SKIP_NX_CACHE ?? '' };
}
