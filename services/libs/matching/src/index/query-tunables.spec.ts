import type { Entity } from '@vigil/lists';
import { THRESHOLD_DEFAULTS } from '../defaults.js';
import { DEFAULT_CONFIG, tunablesFromThresholds, type QueryTunables } from '../config.js';
import { entity } from '../testing/fixtures.js';
import { CandidateIndex } from './candidate-index.js';

// A client's five thresholds reach the engine per query (screen's `tunables`): each one alone
// changes what a query returns, and the index's own tunables are back for the next query.
const LIST: Entity[] = [
  entity('1', 'individual', ['SPUTNIK, Ivan']),
  entity('2', 'individual', ['QUORTLEBANK, Zebedee']),
  entity('3', 'individual', ['VANDERMOLEN, Hieronymus']),
  entity('7', 'individual', ['PETROV, Ivan']),
  entity('8', 'individual', ['BRZEZINSKI, Tadeusz']),
];

const index = new CandidateIndex(LIST);
const results = (name: string, tunables?: QueryTunables) =>
  index.screen({ name }, 5, undefined, tunables).map((m) => `${m.entity.sourceId}:${m.status}`);

describe('per-query thresholds', () => {
  test('the engine defaults are the product defaults', () => {
    expect(tunablesFromThresholds(THRESHOLD_DEFAULTS)).toEqual({
      dbSimThreshold: DEFAULT_CONFIG.dbSimThreshold,
      trigramHitsMin: DEFAULT_CONFIG.trigramHitsMin,
      levDistanceMax: DEFAULT_CONFIG.levDistanceMax,
      highScore: DEFAULT_CONFIG.highScore,
      mediumScore: DEFAULT_CONFIG.mediumScore,
    });
  });

  test('HIGH_SCORE: raised above the score, blocked becomes review', () => {
    expect(results('Hieronimus Fandermolen')).toEqual(['3:blocked']);
    expect(results('Hieronimus Fandermolen', { highScore: 0.95 })).toEqual(['3:review']);
  });

  test('MEDIUM_SCORE: raised above the score, review becomes clear', () => {
    expect(results('Zebedee Qootlekank')).toEqual(['2:review']);
    expect(results('Zebedee Qootlekank', { mediumScore: 0.75 })).toEqual(['2:clear']);
  });

  test('LEV_DISTANCE_MAX: one edit allowed instead of two, the misspelt surname no longer counts', () => {
    expect(results('Zebedee Quoirtleban')).toEqual(['2:blocked']);
    expect(results('Zebedee Quoirtleban', { levDistanceMax: 1 })).toEqual(['2:review']);
  });

  test('DB_SIM_THRESHOLD: a stricter trigram similarity retrieves nothing for a doubly misspelt name', () => {
    expect(results('Zebedgee Quortclebak', { dbSimThreshold: 0.25 })).toEqual(['2:blocked']);
    expect(results('Zebedgee Quortclebak', { dbSimThreshold: 0.7 })).toEqual([]);
  });

  test('TRIGRAM_HITS_MIN: three shared trigrams required instead of one, the candidate is not reached', () => {
    expect(results('Bqrzzinki', { dbSimThreshold: 0.2, trigramHitsMin: 1 })).toEqual(['8:clear']);
    expect(results('Bqrzzinki', { dbSimThreshold: 0.2, trigramHitsMin: 3 })).toEqual([]);
  });

  test('a query with its own tunables leaves the index’s for the next (memoised expansions included)', () => {
    expect(results('Zebedgee Quortclebak', { dbSimThreshold: 0.7 })).toEqual([]);
    expect(results('Zebedgee Quortclebak')).toEqual(['2:blocked']);
    expect(results('Zebedgee Quortclebak', { dbSimThreshold: 0.7 })).toEqual([]);
    expect(index.config).toEqual(DEFAULT_CONFIG);
  });
});
