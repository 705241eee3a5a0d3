/**
 * What distinguishes one registered algorithm's behaviour from another's. `vigil-v1` is
 * frozen: its rules are the defaults of every function that takes rules, and a golden test
 * (src/cli/golden-v1.spec.ts) pins its results. New behaviour goes behind a new name.
 */
export type EngineRules = {
  readonly name: string;
  /** 'v2': pinyin-pro for Han, wanakana for kana, vocalised Hebrew, phonetic Greek, national transcriptions of Russian names. */
  readonly readings: 'v1' | 'v2';
  /** Single-word list names, joins across word boundaries, trailing extra names, Sino-Korean readings: see score-entity.ts. */
  readonly specificity: boolean;
};

export const V1_RULES: EngineRules = Object.freeze({ name: 'vigil-v1', readings: 'v1', specificity: false });
export const V2_RULES: EngineRules = Object.freeze({ name: 'vigil-v2', readings: 'v2', specificity: true });
