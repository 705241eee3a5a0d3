import { DEFAULT_THRESHOLDS, thresholdProblems, type ThresholdConfig, type ThresholdKey } from '@vigil/proto';

export type PresetName = 'Strict' | 'Balanced' | 'Lenient';

/**
 * Spec §9 presets, as match / block / review percentages: Strict 85/95/75, Balanced 80/90/70,
 * Lenient 75/85/65. Block is HIGH_SCORE, review MEDIUM_SCORE and match the candidate similarity
 * DB_SIM_THRESHOLD. The spec gives no values for the two fuzzy counts, so a stricter preset asks
 * for more shared trigrams and allows fewer edits.
 */
export const PRESETS: Readonly<Record<PresetName, ThresholdConfig>> = {
  Strict: { DB_SIM_THRESHOLD: 0.85, HIGH_SCORE: 0.95, MEDIUM_SCORE: 0.75, TRIGRAM_HITS_MIN: 2, LEV_DISTANCE_MAX: 1 },
  Balanced: { DB_SIM_THRESHOLD: 0.8, HIGH_SCORE: 0.9, MEDIUM_SCORE: 0.7, TRIGRAM_HITS_MIN: 2, LEV_DISTANCE_MAX: 2 },
  Lenient: { DB_SIM_THRESHOLD: 0.75, HIGH_SCORE: 0.85, MEDIUM_SCORE: 0.65, TRIGRAM_HITS_MIN: 1, LEV_DISTANCE_MAX: 3 },
};

export type SliderSpec = { key: ThresholdKey; label: string; min: number; max: number; step: number; percent: boolean };

/** Spec §5 slider ranges: scores 0.1–1.0 in steps of 0.05; trigram hits 1–10; Levenshtein 1–20. */
export const SLIDERS: readonly SliderSpec[] = [
  { key: 'HIGH_SCORE', label: 'Block threshold (HIGH_SCORE)', min: 0.1, max: 1, step: 0.05, percent: true },
  { key: 'MEDIUM_SCORE', label: 'Review threshold (MEDIUM_SCORE)', min: 0.1, max: 1, step: 0.05, percent: true },
  {
    key: 'DB_SIM_THRESHOLD',
    label: 'Match similarity (DB_SIM_THRESHOLD)',
    min: 0.1,
    max: 1,
    step: 0.05,
    percent: true,
  },
  {
    key: 'TRIGRAM_HITS_MIN',
    label: 'Minimum trigram hits (TRIGRAM_HITS_MIN)',
    min: 1,
    max: 10,
    step: 1,
    percent: false,
  },
  {
    key: 'LEV_DISTANCE_MAX',
    label: 'Maximum edit distance (LEV_DISTANCE_MAX)',
    min: 1,
    max: 20,
    step: 1,
    percent: false,
  },
];

/** The global sliders: the three scores. */
export const GLOBAL_SLIDERS = SLIDERS.filter((slider) => slider.percent);

/** The preset these values are, if any (a slider step is 0.05, so values compare to 1e-9). */
export function presetOf(config: ThresholdConfig): PresetName | null {
  for (const [name, preset] of Object.entries(PRESETS) as [PresetName, ThresholdConfig][]) {
    if (SLIDERS.every(({ key }) => Math.abs(preset[key] - config[key]) < 1e-9)) return name;
  }
  return null;
}

/** Spec §5: the title "Validation Error" with every broken rule, joined by a comma. */
export function validationMessage(config: ThresholdConfig): string | null {
  const problems = thresholdProblems(config);
  return problems.length === 0 ? null : problems.map((problem) => problem.message).join(', ');
}

/** A slider's value rounded to its step, so 0.1 + 0.05 + … never saves as 0.15000000000000002. */
export function onStep(value: number, step: number): number {
  const decimals = step < 1 ? 2 : 0;
  return Number((Math.round(value / step) * step).toFixed(decimals));
}

export { DEFAULT_THRESHOLDS };
