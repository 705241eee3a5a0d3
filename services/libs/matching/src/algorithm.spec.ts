import { DEFAULT_ALGORITHM, getAlgorithm, listAlgorithms, registerAlgorithm, VIGIL_V1 } from './algorithm.js';
import { SELECTABLE_ALGORITHMS } from './defaults.js';
import { entity } from './testing/fixtures.js';

describe('algorithm registry', () => {
  test('vigil-v1 and vigil-v2 stay registered by name beside vigil-v3; vigil-v3 is the default', () => {
    expect(DEFAULT_ALGORITHM).toBe('vigil-v3');
    expect(listAlgorithms()).toEqual(['vigil-v1', 'vigil-v2', 'vigil-v3']);
    expect(getAlgorithm('vigil-v1')).toBe(VIGIL_V1);
    expect(listAlgorithms()).toContain('vigil-v1');
  });

  test('unknown names and duplicate registrations are refused', () => {
    expect(() => getAlgorithm('nope')).toThrow(/unknown matching algorithm nope/);
    expect(() => registerAlgorithm(VIGIL_V1)).toThrow(/already registered/);
  });

  test('a built screener screens and names its algorithm', () => {
    const screener = getAlgorithm('vigil-v1').build([entity('1', 'individual', ['PETROV, Ivan'])]);
    expect(screener.algorithm).toBe('vigil-v1');
    expect(screener.screen({ name: 'Ivan Petrov' })[0]?.status).toBe('blocked');
  });

  test('every algorithm a client can be pinned to is registered, with its rules; the default is the newest', () => {
    for (const name of SELECTABLE_ALGORITHMS) expect(getAlgorithm(name).rules.name).toBe(name);
    expect(SELECTABLE_ALGORITHMS.at(-1)).toBe(DEFAULT_ALGORITHM);
  });
});
