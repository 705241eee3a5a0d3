import { withoutPytestBanners } from '../scripts/schemathesis.mjs';

/**
 * CI judges a run by the closing lines of the test runners it recognises, pytest among them. A
 * pytest banner that counts no passed test ("4 warnings in 52.45s") made a green npm test run
 * count as one that ran no test, so Schemathesis's pytest-style banners must not reach the log.
 */
describe('Schemathesis output in the npm test log', () => {
  const pytestClosing = /^=+ .*\bin [\d.]+s\b.* =+$/;
  const output = [
    '✅  Fuzzing (in 51.45s)',
    '=================================== WARNINGS ===================================',
    'Authentication failed: 16 operations returned only 401/403 responses',
    '=================================== SUMMARY ====================================',
    '============================= 4 warnings in 52.45s =============================',
  ].join('\n');

  it('rewords every pytest banner and keeps what it said', () => {
    const lines = withoutPytestBanners(output).split('\n');
    expect(lines.filter((line) => pytestClosing.test(line.trim()))).toEqual([]);
    expect(lines.filter((line) => /^=+/.test(line))).toEqual([]);
    expect(lines).toContain('-- 4 warnings (52.45 s) --');
    expect(lines).toContain('-- WARNINGS --');
    expect(lines).toContain('Authentication failed: 16 operations returned only 401/403 responses');
  });

  it('leaves ordinary lines alone', () => {
    expect(withoutPytestBanners('✅  Fuzzing (in 51.45s)\n')).toBe('✅  Fuzzing (in 51.45s)\n');
  });
});
