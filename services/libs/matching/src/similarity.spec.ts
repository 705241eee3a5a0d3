import { boundedEditDistance, collapseDoubles, jaroWinkler, jaroWinklerBelow, trigrams } from './similarity.js';

describe('string metrics', () => {
  test('Jaro-Winkler matches the published reference values', () => {
    expect(jaroWinkler('martha', 'marhta')).toBeCloseTo(0.9611, 4);
    expect(jaroWinkler('dwayne', 'duane')).toBeCloseTo(0.84, 4);
    expect(jaroWinkler('dixon', 'dicksonx')).toBeCloseTo(0.8133, 4);
    expect(jaroWinkler('abc', 'abc')).toBe(1);
    expect(jaroWinkler('abc', 'xyz')).toBe(0);
    expect(jaroWinkler('', 'abc')).toBe(0);
  });

  test('Jaro-Winkler handles tokens longer than its scratch buffers', () => {
    const long = 'a'.repeat(200);
    expect(jaroWinkler(long, long + 'b')).toBeGreaterThan(0.99);
  });

  test('the Jaro-Winkler floor test only rules out pairs that really are below the floor', () => {
    const words = ['martha', 'marhta', 'dwayne', 'duane', 'dixon', 'dicksonx', 'muhammad', 'mohamed', 'ahmad', 'hamad', 'ivanov', 'novak', 'abc', 'xyz', 'a', 'ab'];
    for (const a of words) {
      for (const b of words) {
        for (const floor of [0.7, 0.8, 0.9]) if (jaroWinklerBelow(a, b, floor)) expect(jaroWinkler(a, b)).toBeLessThan(floor);
      }
    }
    expect(jaroWinklerBelow('ivanov', 'hamad', 0.8)).toBe(true);
    expect(jaroWinklerBelow('martha', 'marhta', 0.8)).toBe(false);
    expect(jaroWinklerBelow('ab\u00e9', 'xyz', 0.8)).toBe(false);
  });

  test('edit distance counts an adjacent transposition as one edit', () => {
    expect(boundedEditDistance('spuntik', 'sputnik', 2)).toBe(1);
    expect(boundedEditDistance('john', 'jon', 2)).toBe(1);
    expect(boundedEditDistance('kitten', 'sitting', 5)).toBe(3);
  });

  test('edit distance stops at the budget', () => {
    expect(boundedEditDistance('kittens', 'missiles', 2)).toBe(3);
    expect(boundedEditDistance('a', 'abcdef', 1)).toBe(2);
  });

  test('trigrams are padded and unique', () => {
    expect(trigrams('ab')).toEqual([' ab', 'ab ']);
    expect(trigrams('aaaa')).toEqual([' aa', 'aaa', 'aa ']);
  });

  test('doubled letters collapse', () => {
    expect(collapseDoubles('bassam')).toBe('basam');
  });
});
