import { SELECTABLE_ALGORITHMS, THRESHOLD_DEFAULTS } from '@vigil/matching/defaults';
import { z } from 'zod';

export const THRESHOLD_KEYS = [
  'HIGH_SCORE',
  'MEDIUM_SCORE',
  'DB_SIM_THRESHOLD',
  'TRIGRAM_HITS_MIN',
  'LEV_DISTANCE_MAX',
] as const;
export type ThresholdKey = (typeof THRESHOLD_KEYS)[number];

export const thresholdConfigSchema = z.object({
  HIGH_SCORE: z.number(),
  MEDIUM_SCORE: z.number(),
  DB_SIM_THRESHOLD: z.number(),
  TRIGRAM_HITS_MIN: z.number(),
  LEV_DISTANCE_MAX: z.number(),
  /**
   * The matching algorithm the client is pinned to (issue #32: a new version becomes the default,
   * older ones stay selectable per client, so a bank that validated a version keeps it until it
   * has validated the next). Absent: the default algorithm, whichever it is when the screen runs.
   */
  ALGORITHM: z.enum(SELECTABLE_ALGORITHMS).optional(),
});
export type ThresholdConfig = z.infer<typeof thresholdConfigSchema>;
export { SELECTABLE_ALGORITHMS };

/**
 * The global thresholds a client without its own uses: the matching engine's own defaults
 * (one source, so what the console shows as global is what a screen without a configuration runs with).
 */
export const DEFAULT_THRESHOLDS: Readonly<ThresholdConfig> = THRESHOLD_DEFAULTS;

/**
 * The save-time rules of the threshold editor, in the order the UI shows them.
 * Shared by the admin console (before sending) and the auth service (on receipt),
 * so both give the same words. An empty list means valid.
 */
export function thresholdProblems(config: ThresholdConfig): { key: ThresholdKey; message: string }[] {
  const problems: { key: ThresholdKey; message: string }[] = [];
  const within = (value: number, min: number, max: number) => Number.isFinite(value) && value >= min && value <= max;
  if (!within(config.HIGH_SCORE, 0, 1))
    problems.push({ key: 'HIGH_SCORE', message: 'HIGH_SCORE must be between 0 and 1' });
  if (!within(config.MEDIUM_SCORE, 0, 1))
    problems.push({ key: 'MEDIUM_SCORE', message: 'MEDIUM_SCORE must be between 0 and 1' });
  if (!(config.HIGH_SCORE > config.MEDIUM_SCORE))
    problems.push({ key: 'HIGH_SCORE', message: 'HIGH_SCORE must be greater than MEDIUM_SCORE' });
  if (!within(config.DB_SIM_THRESHOLD, 0, 1))
    problems.push({ key: 'DB_SIM_THRESHOLD', message: 'DB_SIM_THRESHOLD must be between 0 and 1' });
  if (!within(config.TRIGRAM_HITS_MIN, 1, 10) || !Number.isInteger(config.TRIGRAM_HITS_MIN))
    problems.push({ key: 'TRIGRAM_HITS_MIN', message: 'TRIGRAM_HITS_MIN must be between 1 and 10' });
  if (!within(config.LEV_DISTANCE_MAX, 1, 20) || !Number.isInteger(config.LEV_DISTANCE_MAX))
    problems.push({ key: 'LEV_DISTANCE_MAX', message: 'LEV_DISTANCE_MAX must be between 1 and 20' });
  return problems;
}
