import { V1_POLICY, V2_POLICY, V3_POLICY, type MatchPolicy } from './policy.js';

/**
 * A registered algorithm: which readings of a name it makes and which policy (src/policy.ts)
 * it scores them with. `vigil-v1`, `vigil-v2` and `vigil-v3` are frozen: golden tests
 * (src/cli/golden-v*.spec.ts) pin their results, and new behaviour goes behind a new name.
 * Functions that take rules default to the default algorithm's.
 */
export type EngineRules = {
  readonly name: string;
  /**
   * 'v2': pinyin-pro for Han, wanakana for kana, vocalised Hebrew, phonetic Greek, national
   * transcriptions of Russian names; list family names from capitals, names written both ways.
   */
  readonly readings: 'v1' | 'v2';
  /** Every score, weight and cost, and which of v2's specificity and v3's containment apply. */
  readonly policy: MatchPolicy;
  /**
   * v3: each record also carries the non-Latin names its twins on other lists publish (match/twins.ts),
   * so an original-script query finds every list's record of the party.
   */
  readonly twinNames: boolean;
};

export const V1_RULES: EngineRules = Object.freeze({
  name: 'vigil-v1',
  readings: 'v1',
  policy: V1_POLICY,
  twinNames: false,
});
export const V2_RULES: EngineRules = Object.freeze({
  name: 'vigil-v2',
  readings: 'v2',
  policy: V2_POLICY,
  twinNames: false,
});
export const V3_RULES: EngineRules = Object.freeze({
  name: 'vigil-v3',
  readings: 'v2',
  policy: V3_POLICY,
  twinNames: true,
});

/** The rules of the default algorithm: what every function that takes rules uses when given none. */
export const DEFAULT_RULES: EngineRules = V3_RULES;
