// What `npm start` and `npm test` need from the machine beyond Node, and how they get it.
// Nothing is assumed to be installed or running: a machine of the project's kind starts
// with none of these servers and no Chromium. As root with apt-get, the missing Debian
// packages are installed in one `apt-get install`; otherwise the scripts stop at once with
// the command that installs them. Only Node built-ins are imported: this runs before
// `npm install`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { log } from './bootstrap.mjs';

/** The Debian packages the scripts use, each found by the binary it installs. */
export const PACKAGES = {
  'nats-server': {
    binaries: ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'],
    for: 'NATS with JetStream, the services’ bus',
  },
  'redis-server': {
    binaries: ['/usr/bin/redis-server', '/usr/sbin/redis-server', '/usr/local/bin/redis-server'],
    for: 'Redis, the gateway replicas’ shared rate limits',
  },
  chromium: { binaries: ['/usr/bin/chromium'], for: 'the browser tests' },
};
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/**
 * Which of `names` are missing, and what to do about them: `ready` (nothing is missing),
 * `install` (root with apt-get) or `fail` with the one message to print. CHROMIUM_PATH, when
 * set, stands for the chromium package and is never installed over.
 * @param {string[]} names keys of PACKAGES
 */
export function packagesPlan(
  names,
  {
    chromiumPath = process.env.CHROMIUM_PATH,
    exists = existsSync,
    isRoot = process.getuid?.() === 0,
    hasAptGet = existsSync('/usr/bin/apt-get'),
  } = {},
) {
  if (names.includes('chromium') && chromiumPath && !exists(chromiumPath)) {
    return {
      action: 'fail',
      missing: ['chromium'],
      message: `CHROMIUM_PATH=${chromiumPath} does not exist: point it at a Chromium binary, or unset it to use Debian's (apt-get install chromium).`,
    };
  }
  const missing = names.filter(
    (name) => !(name === 'chromium' && chromiumPath) && !PACKAGES[name].binaries.some((path) => exists(path)),
  );
  if (missing.length === 0) return { action: 'ready', missing };
  if (isRoot && hasAptGet) return { action: 'install', missing };
  return { action: 'fail', missing, message: installHint(missing) };
}

export function installHint(missing) {
  const what = missing.map((name) => `${name} (${PACKAGES[name].for})`).join(', ');
  return `Missing: ${what}. Install with \`sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}\` (Debian/Ubuntu), then run the command again.`;
}

/**
 * Makes sure the packages' binaries are there, installing them from Debian's packages when
 * that needs no one's permission. Calls `fail` (which exits) when it cannot.
 * @param {string[]} names
 * @param {{ fail: (message: string) => never }} io
 */
export function ensurePackages(names, { fail }) {
  const plan = packagesPlan(names);
  if (plan.action === 'ready') return;
  if (plan.action === 'fail') return fail(plan.message);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const [label, args] of [
    ['apt-get update', ['update', '-qq']],
    [`apt-get install ${plan.missing.join(' ')}`, ['install', '-y', '-qq', ...plan.missing]],
  ]) {
    timed(label, () => {
      const result = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
      if (result.status !== 0)
        fail(`apt-get ${args.join(' ')} failed (exit ${result.status ?? result.signal}). ${installHint(plan.missing)}`);
    });
  }
  const still = packagesPlan(names);
  if (still.action !== 'ready')
    fail(`apt-get ran, but ${still.missing.join(', ')} is still missing. ${installHint(still.missing)}`);
}

/** The first of a package's binaries that exists. */
export function binaryOf(name) {
  return PACKAGES[name].binaries.find((path) => existsSync(path));
}

const durations = [];

/**
 * Runs one step and prints how long it took; `durationsTable()` lists them all at the end,
 * so a slow CI run says which step grew.
 * @template T
 * @param {string} label
 * @param {() => T} fn
 * @returns {T}
 */
export function timed(label, fn) {
  const started = performance.now();
  const done = () => {
    const seconds = (performance.now() - started) / 1000;
    durations.push([label, seconds]);
    log(`${label}: ${seconds.toFixed(1)} s`);
  };
  const result = fn();
  if (result instanceof Promise) return result.finally(done);
  done();
  return result;
}

export function durationsTable() {
  const width = Math.max(...durations.map(([label]) => label.length), 4);
  const total = durations.reduce((sum, [, seconds]) => sum + seconds, 0);
  return [
    'Step durations:',
    ...durations.map(([label, seconds]) => `  ${label.padEnd(width)}  ${seconds.toFixed(1).padStart(7)} s`),
    `  ${'sum'.padEnd(width)}  ${total.toFixed(1).padStart(7)} s`,
  ].join('\n');
}
