// The browser tests drive Debian's Chromium (playwright-core launches it, it downloads nothing).
// `npm test` makes sure it is there before spending minutes on the other steps:
// as root with apt-get it installs the package, as `.ci/run` does; otherwise it stops
// at once with the line that says how to install it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const DEBIAN_CHROMIUM = '/usr/bin/chromium';
export const INSTALL_HINT = `Chromium is missing at ${DEBIAN_CHROMIUM}: install it with \`sudo apt-get install chromium\` (Debian/Ubuntu), or set CHROMIUM_PATH to a Chromium binary.`;

/**
 * What to do about Chromium on this machine:
 * `ready` (it is there), `install` (missing, but we are root and have apt-get) or
 * `fail` with the one line to print.
 * @param {{ chromiumPath?: string, exists?: (path: string) => boolean, isRoot?: boolean, hasAptGet?: boolean }} machine
 * @returns {{ action: 'ready', path: string } | { action: 'install', path: string } | { action: 'fail', message: string }}
 */
export function chromiumPlan({
  chromiumPath = process.env.CHROMIUM_PATH,
  exists = existsSync,
  isRoot = process.getuid?.() === 0,
  hasAptGet = existsSync('/usr/bin/apt-get'),
} = {}) {
  if (chromiumPath) {
    return exists(chromiumPath)
      ? { action: 'ready', path: chromiumPath }
      : {
          action: 'fail',
          message: `CHROMIUM_PATH=${chromiumPath} does not exist: point it at a Chromium binary, or unset it to use Debian's (apt-get install chromium).`,
        };
  }
  if (exists(DEBIAN_CHROMIUM)) return { action: 'ready', path: DEBIAN_CHROMIUM };
  if (isRoot && hasAptGet) return { action: 'install', path: DEBIAN_CHROMIUM };
  return { action: 'fail', message: INSTALL_HINT };
}

/**
 * Makes sure the browser tests will find Chromium, installing Debian's package when
 * that needs no one's permission. Calls `fail` (which exits) when it cannot.
 * @param {{ log: (message: string) => void, fail: (message: string) => never }} io
 */
export function ensureChromium({ log, fail }) {
  const plan = chromiumPlan();
  if (plan.action === 'ready') return plan.path;
  if (plan.action === 'fail') return fail(plan.message);
  log('Installing Chromium for the browser tests (apt-get install chromium)...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'chromium'],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
    if (result.status !== 0)
      return fail(`apt-get ${args.join(' ')} failed (exit ${result.status ?? result.signal}). ${INSTALL_HINT}`);
  }
  if (!existsSync(DEBIAN_CHROMIUM))
    return fail(`apt-get installed chromium but ${DEBIAN_CHROMIUM} is still missing. ${INSTALL_HINT}`);
  return DEBIAN_CHROMIUM;
}
