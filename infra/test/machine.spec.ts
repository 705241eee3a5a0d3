import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DEBIAN_CHROMIUM, installHint, packagesPlan } from '../scripts/machine.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const nowhere = () => false;
const everything = ['nats-server', 'redis-server', 'chromium'] as const;
const only =
  (...present: string[]) =>
  (path: string) =>
    present.includes(path);

// A machine of the project's kind starts with no NATS, Redis or Chromium: `npm test` must install
// them (as root) or say at once how to, not fail half an hour later.
describe('the Debian packages npm start and npm test need', () => {
  it('is ready when every binary is there, wherever the package put it', () => {
    const exists = only(DEBIAN_CHROMIUM, '/usr/sbin/nats-server', '/usr/local/bin/redis-server');
    expect(packagesPlan([...everything], { chromiumPath: '', exists, isRoot: false })).toEqual({
      action: 'ready',
      missing: [],
    });
  });

  it('installs only what is missing when we are root with apt-get (as in CI)', () => {
    const exists = only('/usr/bin/nats-server');
    expect(packagesPlan([...everything], { chromiumPath: '', exists, isRoot: true, hasAptGet: true })).toEqual({
      action: 'install',
      missing: ['redis-server', 'chromium'],
    });
  });

  it('otherwise answers one message with the exact install command', () => {
    for (const machine of [
      { isRoot: false, hasAptGet: true },
      { isRoot: true, hasAptGet: false },
    ]) {
      const plan = packagesPlan(['nats-server', 'chromium'], { chromiumPath: '', exists: nowhere, ...machine });
      expect(plan).toEqual({
        action: 'fail',
        missing: ['nats-server', 'chromium'],
        message: installHint(['nats-server', 'chromium']),
      });
    }
    expect(installHint(['nats-server', 'chromium'])).toContain('sudo apt-get install -y nats-server chromium');
  });

  it('takes CHROMIUM_PATH for chromium, and never installs over one that points nowhere', () => {
    expect(
      packagesPlan(['chromium'], {
        chromiumPath: '/opt/chrome',
        exists: only('/opt/chrome'),
        isRoot: true,
        hasAptGet: true,
      }),
    ).toEqual({ action: 'ready', missing: [] });
    expect(
      packagesPlan(['chromium'], { chromiumPath: '/opt/none/chrome', exists: nowhere, isRoot: true, hasAptGet: true }),
    ).toMatchObject({ action: 'fail' });
  });

  it('makes npm test stop at once, before installing or linting, when Chromium cannot be had', () => {
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
