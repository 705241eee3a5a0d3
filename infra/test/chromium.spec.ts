import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DEBIAN_CHROMIUM, INSTALL_HINT, chromiumPlan } from '../scripts/chromium.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const nowhere = () => false;

// `npm test` ends with browser tests: a machine without Chromium must learn it in the first second, not after the suite.
describe('Chromium for the browser tests', () => {
  it('uses Debian’s chromium when it is there', () => {
    expect(chromiumPlan({ chromiumPath: '', exists: (p) => p === DEBIAN_CHROMIUM, isRoot: false })).toEqual({
      action: 'ready',
      path: DEBIAN_CHROMIUM,
    });
  });

  it('installs it when it is missing and we are root with apt-get (as .ci/run does)', () => {
    expect(chromiumPlan({ chromiumPath: '', exists: nowhere, isRoot: true, hasAptGet: true })).toEqual({
      action: 'install',
      path: DEBIAN_CHROMIUM,
    });
  });

  it('otherwise answers the one line that says how to install it', () => {
    expect(chromiumPlan({ chromiumPath: '', exists: nowhere, isRoot: false, hasAptGet: true })).toEqual({
      action: 'fail',
      message: INSTALL_HINT,
    });
    expect(chromiumPlan({ chromiumPath: '', exists: nowhere, isRoot: true, hasAptGet: false })).toEqual({
      action: 'fail',
      message: INSTALL_HINT,
    });
    expect(INSTALL_HINT).toContain('apt-get install chromium');
  });

  it('never installs over a CHROMIUM_PATH that points nowhere', () => {
    expect(
      chromiumPlan({ chromiumPath: '/opt/none/chrome', exists: nowhere, isRoot: true, hasAptGet: true }),
    ).toMatchObject({ action: 'fail' });
  });

  it('makes npm test stop at once, before installing or linting, when it cannot be had', () => {
    const started = Date.now();
    const run = spawnSync(process.execPath, [join(ROOT, 'infra', 'scripts', 'test.mjs')], {
      cwd: ROOT,
      env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('Lint');
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringContaining('CHROMIUM_PATH=/nonexistent/chromium does not exist'),
    ]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
