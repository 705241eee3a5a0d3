import { DEFAULT_THRESHOLDS } from '@vigil/proto';
import { onStep, PRESETS, presetOf, validationMessage } from './threshold-presets.js';

describe('threshold presets', () => {
  it("gives the spec's match / block / review percentages", () => {
    expect([PRESETS.Strict.DB_SIM_THRESHOLD, PRESETS.Strict.HIGH_SCORE, PRESETS.Strict.MEDIUM_SCORE]).toEqual([
      0.85, 0.95, 0.75,
    ]);
    expect([PRESETS.Balanced.DB_SIM_THRESHOLD, PRESETS.Balanced.HIGH_SCORE, PRESETS.Balanced.MEDIUM_SCORE]).toEqual([
      0.8, 0.9, 0.7,
    ]);
    expect([PRESETS.Lenient.DB_SIM_THRESHOLD, PRESETS.Lenient.HIGH_SCORE, PRESETS.Lenient.MEDIUM_SCORE]).toEqual([
      0.75, 0.85, 0.65,
    ]);
  });

  it('are all valid, and each is recognised as itself', () => {
    for (const [name, preset] of Object.entries(PRESETS)) {
      expect(validationMessage(preset)).toBeNull();
      expect(presetOf(preset)).toBe(name);
    }
    expect(presetOf({ ...PRESETS.Strict, LEV_DISTANCE_MAX: 4 })).toBeNull();
  });
});

describe('validationMessage', () => {
  it('joins every broken rule with a comma, in the order of spec §5', () => {
    expect(validationMessage({ ...DEFAULT_THRESHOLDS, HIGH_SCORE: 0.5, MEDIUM_SCORE: 0.6, TRIGRAM_HITS_MIN: 11 })).toBe(
      'HIGH_SCORE must be greater than MEDIUM_SCORE, TRIGRAM_HITS_MIN must be between 1 and 10',
    );
    expect(validationMessage({ ...DEFAULT_THRESHOLDS, LEV_DISTANCE_MAX: 21 })).toBe(
      'LEV_DISTANCE_MAX must be between 1 and 20',
    );
  });
});

describe('onStep', () => {
  it('rounds a slider value to its step', () => {
    expect(onStep(0.1 + 0.05, 0.05)).toBe(0.15);
    expect(onStep(0.7000000001, 0.05)).toBe(0.7);
    expect(onStep(3.4, 1)).toBe(3);
  });
});
