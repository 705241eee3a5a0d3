// vigil-v3 is frozen since it became the default (issue #32): every result it gives on the
// development queries (the three sets), explanations included, must stay byte for byte what it was
// then, so the refactors that follow ("the core as a policy") are proven by this test as v1's and
// v2's are. The fixture (test/fixtures/golden-v3, made by bench/eval/make-golden-v3.mjs from the
// records v3 ranks in its top 5) is committed rather than read from ../shared.
import { screenGoldenFixture } from './golden-fixture.js';

describe('vigil-v3 golden results', () => {
  it('screens every development query exactly as it did when frozen', () => {
    const { queries, changed } = screenGoldenFixture('v3', 'vigil-v3');
    expect(queries).toBeGreaterThan(2300);
    expect(changed).toEqual([]);
  });
});
