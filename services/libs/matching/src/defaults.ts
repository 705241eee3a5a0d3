// The engine's default thresholds under the names the product stores per client
// (proto's DEFAULT_THRESHOLDS re-exports these). Kept free of imports so the web
// apps and proto can read them without pulling in the matching engine.

export type ThresholdDefaults = {
  /** At or above, a result is `blocked`. */
  readonly HIGH_SCORE: number;
  /** At or above (and below HIGH_SCORE), a result is `review`. */
  readonly MEDIUM_SCORE: number;
  /** Minimum trigram (Dice) similarity for a list token to be a fuzzy candidate of a query token. */
  readonly DB_SIM_THRESHOLD: number;
  /** Minimum trigrams a list token must share with a query token to be a fuzzy candidate. */
  readonly TRIGRAM_HITS_MIN: number;
  /** Maximum edit distance of a fuzzy token match (shorter tokens allow fewer). */
  readonly LEV_DISTANCE_MAX: number;
};

export const THRESHOLD_DEFAULTS: ThresholdDefaults = Object.freeze({
  HIGH_SCORE: 0.85,
  MEDIUM_SCORE: 0.6,
  DB_SIM_THRESHOLD: 0.45,
  TRIGRAM_HITS_MIN: 2,
  LEV_DISTANCE_MAX: 2,
});

/**
 * The matching algorithms a client may be pinned to (issue #32: "older versions stay selectable per
 * client"), by the names recorded with every answer. A client with none set runs the default
 * (`DEFAULT_ALGORITHM` in algorithm.ts, the last of these); algorithm.spec.ts holds the two in step.
 */
export const SELECTABLE_ALGORITHMS = ['vigil-v1', 'vigil-v2', 'vigil-v3'] as const;
export type SelectableAlgorithm = (typeof SELECTABLE_ALGORITHMS)[number];
