// The tunables map one to one onto the per-client threshold configuration the
// product already stores (DB_SIM_THRESHOLD, TRIGRAM_HITS_MIN, LEV_DISTANCE_MAX,
// HIGH_SCORE, MEDIUM_SCORE); the rest are engine limits.

import { THRESHOLD_DEFAULTS, type ThresholdDefaults } from './defaults.js';

export type MatchStatus = 'blocked' | 'review' | 'clear';

export type MatchingConfig = {
  /** DB_SIM_THRESHOLD: minimum trigram (Dice) similarity for a list token to be a fuzzy candidate of a query token. */
  dbSimThreshold: number;
  /** TRIGRAM_HITS_MIN: minimum trigrams a list token must share with a query token to be a fuzzy candidate. */
  trigramHitsMin: number;
  /** LEV_DISTANCE_MAX: maximum edit distance of a fuzzy token match (shorter tokens allow fewer). */
  levDistanceMax: number;
  /** HIGH_SCORE: at or above, the result is `blocked`. */
  highScore: number;
  /** MEDIUM_SCORE: at or above (and below HIGH_SCORE), the result is `review`. */
  mediumScore: number;
  /** How many retrieved candidate entities are fully scored per query. */
  candidateLimit: number;
  /** How many results a query returns. */
  resultLimit: number;
};

export const DEFAULT_CONFIG: Readonly<MatchingConfig> = Object.freeze({
  dbSimThreshold: THRESHOLD_DEFAULTS.DB_SIM_THRESHOLD,
  trigramHitsMin: THRESHOLD_DEFAULTS.TRIGRAM_HITS_MIN,
  levDistanceMax: THRESHOLD_DEFAULTS.LEV_DISTANCE_MAX,
  highScore: THRESHOLD_DEFAULTS.HIGH_SCORE,
  mediumScore: THRESHOLD_DEFAULTS.MEDIUM_SCORE,
  candidateLimit: 40,
  resultLimit: 10,
});

export function resolveConfig(overrides: Partial<MatchingConfig> = {}): MatchingConfig {
  const c = { ...DEFAULT_CONFIG, ...overrides };
  if (!(c.mediumScore <= c.highScore)) throw new RangeError('mediumScore must not exceed highScore');
  for (const [k, v] of Object.entries(c)) if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new RangeError(`${k} must be a non-negative number`);
  return c;
}

export function statusFor(score: number, config: Pick<MatchingConfig, 'highScore' | 'mediumScore'>): MatchStatus {
  if (score >= config.highScore) return 'blocked';
  if (score >= config.mediumScore) return 'review';
  return 'clear';
}

/** The tunables a caller may set per query (a client's thresholds); the rest are engine limits. */
export type QueryTunables = Partial<Pick<MatchingConfig, 'dbSimThreshold' | 'trigramHitsMin' | 'levDistanceMax' | 'highScore' | 'mediumScore'>>;

/** A client's stored thresholds (the product's names), as engine tunables. */
export function tunablesFromThresholds(t: Partial<ThresholdDefaults>): QueryTunables {
  const out: { -readonly [K in keyof QueryTunables]: QueryTunables[K] } = {};
  if (t.DB_SIM_THRESHOLD !== undefined) out.dbSimThreshold = t.DB_SIM_THRESHOLD;
  if (t.TRIGRAM_HITS_MIN !== undefined) out.trigramHitsMin = t.TRIGRAM_HITS_MIN;
  if (t.LEV_DISTANCE_MAX !== undefined) out.levDistanceMax = t.LEV_DISTANCE_MAX;
  if (t.HIGH_SCORE !== undefined) out.highScore = t.HIGH_SCORE;
  if (t.MEDIUM_SCORE !== undefined) out.mediumScore = t.MEDIUM_SCORE;
  return out;
}
