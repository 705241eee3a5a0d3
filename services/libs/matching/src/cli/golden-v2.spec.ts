// vigil-v2 is frozen since vigil-v3 was introduced (issue #32): every result it gives on the
// development queries (both sets), explanations included, must stay byte for byte what it was
// then. As for v1 (golden-v1.spec.ts), the fixture is committed (test/fixtures/golden-v2, made by
// bench/eval/make-golden-v2.mjs from the records v2 ranks in its top 5) rather than read from
// ../shared, so that a change to the shared lists cannot fail this test and a change to v2
// cannot pass it.
import { screenGoldenFixture } from './golden-fixture.js';

describe('vigil-v2 golden results', () => {
  it('screens every development query exactly as it did when frozen', () => {
    const { queries, changed } = screenGoldenFixture('v2', 'vigil-v2');
    expect(queries).toBeGreaterThan(1900);
    expect(changed).toEqual([]);
  });
});
