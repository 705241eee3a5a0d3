import { getAlgorithm } from '../algorithm.js';
import { entity } from '../testing/fixtures.js';
import { CliUsageError, parseArgs } from './args.js';
import { parseQueryLine, screenLine } from './batch.js';

describe('vigil-screen arguments', () => {
  test('batch and explain with tunables', () => {
    expect(parseArgs(['batch', '--lists', 'd', '--high', '0.9', '--medium', '0.5', '--limit', '5'])).toEqual({
      command: 'batch',
      lists: 'd',
      options: { algorithm: 'vigil-v3', limit: 5, config: { highScore: 0.9, mediumScore: 0.5 } },
    });
    expect(parseArgs(['explain', '--lists', 'd', '--dob', '1950', 'Sergey Lavrov'])).toMatchObject({
      command: 'explain',
      name: 'Sergey Lavrov',
      dob: '1950',
    });
  });

  test('usage errors', () => {
    expect(() => parseArgs(['batch'])).toThrow(CliUsageError);
    expect(() => parseArgs(['frobnicate', '--lists', 'd'])).toThrow(/unknown command/);
    expect(() => parseArgs(['explain', '--lists', 'd'])).toThrow(/exactly one name/);
    expect(() => parseArgs(['batch', '--lists', 'd', '--high', 'x'])).toThrow(/number/);
    expect(parseArgs([])).toEqual({ command: 'help' });
  });
});

describe('vigil-screen batch lines', () => {
  const screener = getAlgorithm('vigil-v1').build([
    entity('17176', 'individual', ['PETROV, Ivan'], { birthDates: ['1970'] }),
    entity('QDi.055', 'individual', ['IVAN PETROV'], {}, 'un-sc'),
  ]);

  test('flat and nested query lines are both accepted', () => {
    expect(parseQueryLine('{"id":"x","name":"Ivan","dob":"1970","country":"RU","entityType":"person"}')).toEqual({
      id: 'x',
      query: { name: 'Ivan', dob: '1970', country: 'RU', entityType: 'person' },
    });
    expect(parseQueryLine('{"id":"y","query":{"name":"Ivan"}}')).toEqual({ id: 'y', query: { name: 'Ivan' } });
  });

  test('output follows the contract, field by field and in order', () => {
    const out = screenLine(screener, '{"id":"q1","name":"Ivan Petrov"}', 10);
    expect(Object.keys(out)).toEqual(['id', 'results']);
    expect(out.id).toBe('q1');
    expect(out.results.map((r) => Object.keys(r))).toEqual([
      ['listId', 'sourceId', 'name', 'matchedName', 'score', 'status'],
      ['listId', 'sourceId', 'name', 'matchedName', 'score', 'status'],
    ]);
    expect(out.results).toEqual([
      {
        listId: 'ofac-sdn',
        sourceId: '17176',
        name: 'PETROV, Ivan',
        matchedName: 'PETROV, Ivan',
        score: expect.any(Number),
        status: expect.stringMatching(/^(blocked|review)$/),
      },
      {
        listId: 'un-sc',
        sourceId: 'QDi.055',
        name: 'IVAN PETROV',
        matchedName: 'IVAN PETROV',
        score: out.results[0]!.score,
        status: out.results[0]!.status,
      },
    ]);
  });

  test('a malformed line yields an empty result with an error, keeping the id when it can', () => {
    expect(screenLine(screener, 'not json', 10)).toMatchObject({ id: null, results: [] });
    expect(screenLine(screener, '{"id":"q2"}', 10)).toMatchObject({
      id: 'q2',
      results: [],
      error: expect.stringMatching(/name/),
    });
  });

  test('the limit caps the results', () => {
    expect(screenLine(screener, '{"id":"q3","name":"Ivan Petrov"}', 1).results).toHaveLength(1);
  });
});
