// vigil-v1 is frozen: every result it gives on the development queries (both sets), explanations
// included, must stay byte for byte what it was when v2 was introduced. The fixture is committed
// (test/fixtures/golden-v1, made by bench/eval/make-golden-v1.mjs) rather than read from ../shared, so that
// a change to the shared lists cannot fail this test and a change to v1 cannot pass it.
// It lives under src/cli because the core may not read files.
import { screenGoldenFixture } from './golden-fixture.js';

describe('vigil-v1 golden results', () => {
  it('screens every development query exactly as it did when frozen', () => {
    const { queries, changed } = screenGoldenFixture('v1', 'vigil-v1');
    expect(queries).toBeGreaterThan(1900);
    expect(changed).toEqual([]);
  });
});
