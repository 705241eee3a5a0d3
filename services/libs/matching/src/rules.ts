/**
 * What distinguishes one registered algorithm's behaviour from another's. `vigil-v1` is
 * frozen: a golden test (src/cli/golden-v1.spec.ts) pins its results, and new behaviour goes
 * behind a new name. Functions that take rules default to the default algorithm's.
 */
export type EngineRules = {
  readonly name: string;
  /** 'v2': pinyin-pro for Han, wanakana for kana, vocalised Hebrew, phonetic Greek, national transcriptions of Russian names. */
  readonly readings: 'v1' | 'v2';
  /** Single-word list names, joins across word boundaries, trailing extra names, Sino-Korean readings: see score-entity.ts. */
  readonly specificity: boolean;
  /**
   * v3: a query holding the whole list name plus other words scores as that name less a small
   * penalty per extra word, and stays at review when the name is rare enough (compare.ts
   * listFullyPresent, score-entity.ts containmentEffect).
   */
  readonly containment: boolean;
  /**
   * v3: each record also carries the non-Latin names its twins on other lists publish (match/twins.ts),
   * so an original-script query finds every list's record of the party.
   */
  readonly twinNames: boolean;
};

export const V1_RULES: EngineRules = Object.freeze({
  name: 'vigil-v1',
  readings: 'v1',
  specificity: false,
  containment: false,
  twinNames: false,
});
export const V2_RULES: EngineRules = Object.freeze({
  name: 'vigil-v2',
  readings: 'v2',
  specificity: true,
  containment: false,
  twinNames: false,
});
export const V3_RULES: EngineRules = Object.freeze({
  name: 'vigil-v3',
  readings: 'v2',
  specificity: true,
  containment: true,
  twinNames: true,
});

/** The rules of the default algorithm: what every function that takes rules uses when given none. */
export const DEFAULT_RULES: EngineRules = V3_RULES;
