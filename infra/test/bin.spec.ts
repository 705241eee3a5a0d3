import { execFileSync, spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

// npm links a workspace's bins at install time, before anything is built: a bin that points
// into dist/ is not linked in a fresh clone, and `npx vigil-screen` then asks the registry.
describe('the vigil-screen bin', () => {
  it('is linked to a file git tracks, so npm install links it before any build', () => {
    const target = relative(ROOT, realpathSync(join(ROOT, 'node_modules', '.bin', 'vigil-screen')));
    expect(target).not.toContain('dist');
    expect(execFileSync('git', ['ls-files', '--error-unmatch', target], { cwd: ROOT, encoding: 'utf8' }).trim()).toBe(
      target,
    );
  });

  it('runs the built command line', () => {
    const help = spawnSync(join(ROOT, 'node_modules', '.bin', 'vigil-screen'), ['--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('vigil-screen explain --lists');
  });
});
