import type { Entity } from '@vigil/lists';
import { entity } from '../testing/fixtures.js';
import { CandidateIndex } from './candidate-index.js';

const LIST: Entity[] = [
  entity('1', 'individual', ['AL-UBAIDI, Yahia Abdallah'], { birthDates: ['1960'] }),
  entity('2', 'individual', ['NASSER, Fadi Nabih']),
  entity('3', 'individual', ['SPUTNIK, Ivan']),
  entity('4', 'organization', ['IRAN HORMUZ 12'], {}, 'ofac-sdn'),
  entity('5', 'vessel', ['GAS ALLURE']),
  entity('6', 'individual', ['MUHAMMAD, Khalid']),
  entity('7', 'individual', ['PETROV, Ivan']),
  entity('8', 'organization', ['GLOBAL TRADING LLC']),
  entity('9', 'individual', ['KHALID, Mohammed']),
  entity(
    'QDi.1',
    'individual',
    ['YAHIA ABDALLAH AL-UBAIDI', { full: 'يحيى عبد الله العبيدي', strength: 'strong', script: 'Arab' }],
    {},
    'un-sc',
  ),
];

const index = new CandidateIndex(LIST);
const ids = (name: string, extra = {}) =>
  index
    .screen({ name, ...extra })
    .filter((m) => m.status !== 'clear')
    .map((m) => `${m.entity.listId}:${m.entity.sourceId}`);

describe('candidate retrieval', () => {
  test('exact tokens', () => {
    expect(ids('Ivan Petrov')).toEqual(['ofac-sdn:7']);
  });

  test('trigram fuzzy: a typo still retrieves', () => {
    expect(ids('Ivan Sputnki')).toEqual(['ofac-sdn:3']);
  });

  test('phonetic and equivalence: another spelling retrieves', () => {
    expect(ids('Fadi Nabih Nasir')).toEqual(['ofac-sdn:2']);
    expect(ids('Khaled Mohamed')).toEqual(['ofac-sdn:6', 'ofac-sdn:9']);
  });

  test('consonant skeletons: Arabic script retrieves the Latin-only record too', () => {
    expect(ids('يحيى عبد الله العبيدي')).toEqual(expect.arrayContaining(['ofac-sdn:1', 'un-sc:QDi.1']));
  });

  test('joined list tokens: "IRANHORMUZ 12" and "GASALLURE"', () => {
    expect(ids('IRANHORMUZ 12')).toEqual(['ofac-sdn:4']);
    expect(ids('GASALLURE', { entityType: 'vessel' })).toEqual(['ofac-sdn:5']);
  });

  test('nothing shared, nothing returned', () => {
    expect(index.screen({ name: 'Zyxwv Qrstu' })).toEqual([]);
  });

  test('the index returns what scoring every entity would, in the same order', () => {
    for (const name of ['Ivan Petrov', 'Khaled Mohamed', 'Yahia al Ubaidi', 'GLOBAL TRADING', 'Fadi Nasser']) {
      const viaIndex = index.screen({ name }).map((m) => [m.entity.sourceId, m.score]);
      const exhaustive = index
        .screenExhaustively({ name })
        .filter((m) => viaIndex.some(([id]) => id === m.entity.sourceId))
        .map((m) => [m.entity.sourceId, m.score]);
      expect(viaIndex.slice(0, exhaustive.length)).toEqual(exhaustive);
      expect(index.screenExhaustively({ name })[0]?.entity.sourceId).toBe(index.screen({ name })[0]?.entity.sourceId);
    }
  });

  test('a scope returns only its entities, and better names outside it cannot crowd them out', () => {
    const crowded = new CandidateIndex(
      [
        entity('A1', 'individual', ['PETROV, Ivan']),
        entity('A2', 'individual', ['PETROV, Ivan']),
        entity('A3', 'individual', ['PETROV, Ivan']),
        entity('B', 'individual', ['PETROV, Ivan Sergeevich']),
      ],
      { candidateLimit: 2 },
    );
    const found = (scope?: Uint8Array) =>
      crowded.screen({ name: 'Ivan Petrov' }, 10, scope).map((m) => m.entity.sourceId);
    // unscoped, the limit is spent on the closer names
    expect(found()).not.toContain('B');
    expect(found(Uint8Array.from([0, 0, 0, 1]))).toEqual(['B']);
    expect(found(Uint8Array.from([0, 1, 0, 0]))).toEqual(['A2']);
    expect(found(Uint8Array.from([0, 0, 0, 0]))).toEqual([]);
  });

  test('stats describe the index', () => {
    const s = index.stats();
    expect(s.entities).toBe(LIST.length);
    expect(s.names).toBe(LIST.reduce((n, e) => n + e.names.length, 0));
    // AL-UBAIDI (ofac-sdn 1) is the UN's QDi.1, whose Arabic original it carries as a twin's name
    expect(s.twinNames).toBe(1);
    expect(s.terms).toBeGreaterThan(10);
  });
});

describe('tunables', () => {
  test('HIGH_SCORE and MEDIUM_SCORE set the status', () => {
    const s = new CandidateIndex(LIST).screen({ name: 'Ivan Sputnki' })[0]!.score;
    expect(
      new CandidateIndex(LIST, { highScore: 1, mediumScore: s + 0.001 }).screen({ name: 'Ivan Sputnki' })[0]!.status,
    ).toBe('clear');
    expect(new CandidateIndex(LIST, { highScore: 1, mediumScore: s }).screen({ name: 'Ivan Sputnki' })[0]!.status).toBe(
      'review',
    );
    expect(
      new CandidateIndex(LIST, { highScore: s, mediumScore: 0.5 }).screen({ name: 'Ivan Sputnki' })[0]!.status,
    ).toBe('blocked');
  });

  test('LEV_DISTANCE_MAX 0 turns fuzzy token matching off', () => {
    const exactOnly = new CandidateIndex(LIST, { levDistanceMax: 0 });
    const m = exactOnly.screen({ name: 'Ivan Sputnki' }).find((r) => r.entity.sourceId === '3');
    expect(m?.tokens.find((t) => t.query[0] === 'sputnki')?.method ?? 'contradicted').not.toBe('fuzzy');
  });

  test('DB_SIM_THRESHOLD and TRIGRAM_HITS_MIN gate trigram retrieval', () => {
    // "Spuntik" shares no exact token, phonetic key or equivalence with "Sputnik": only trigrams reach it
    const list = [entity('x', 'organization', ['SPUTNIK'])];
    expect(new CandidateIndex(list, { dbSimThreshold: 1 }).screen({ name: 'Spuntik' })).toEqual([]);
    expect(new CandidateIndex(list, { trigramHitsMin: 9 }).screen({ name: 'Spuntik' })).toEqual([]);
    expect(
      new CandidateIndex(list, { dbSimThreshold: 0.3, trigramHitsMin: 2 }).screen({ name: 'Spuntik' })[0]?.entity
        .sourceId,
    ).toBe('x');
  });

  test('invalid tunables are refused', () => {
    expect(() => new CandidateIndex(LIST, { highScore: 0.5, mediumScore: 0.6 })).toThrow(/mediumScore/);
    expect(() => new CandidateIndex(LIST, { levDistanceMax: -1 })).toThrow(/levDistanceMax/);
  });
});

describe('determinism', () => {
  test('same lists and queries give byte-identical output across independent builds', () => {
    const queries = ['Ivan', 'Mohammed Khalid', 'يحيى العبيدي', 'Global Trading', 'Gas Allure', 'Petrov Ivan'];
    const run = () => {
      const idx = new CandidateIndex(LIST.map((e) => structuredClone(e)));
      return JSON.stringify(
        queries.map((name) =>
          idx.screen({ name }).map((m) => ({ ...m, entity: `${m.entity.listId}:${m.entity.sourceId}` })),
        ),
      );
    };
    const first = run();
    expect(run()).toBe(first);
  });

  test('equal scores are ordered by list and source id', () => {
    const twins = new CandidateIndex([
      entity('b', 'individual', ['Ivan Petrov']),
      entity('a', 'individual', ['Ivan Petrov'], {}, 'uk-hmt'),
      entity('a', 'individual', ['Ivan Petrov']),
    ]);
    expect(twins.screen({ name: 'Ivan Petrov' }).map((m) => `${m.entity.listId}:${m.entity.sourceId}`)).toEqual([
      'ofac-sdn:a',
      'ofac-sdn:b',
      'uk-hmt:a',
    ]);
  });
});
