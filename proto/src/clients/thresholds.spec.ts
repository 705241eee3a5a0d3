import { DEFAULT_THRESHOLDS, thresholdProblems } from './thresholds.js';

describe('thresholdProblems', () => {
  it('accepts the global defaults', () => {
    expect(thresholdProblems({ ...DEFAULT_THRESHOLDS })).toEqual([]);
  });

  it('names every broken rule in the editor order', () => {
    const messages = thresholdProblems({
      HIGH_SCORE: 1.2,
      MEDIUM_SCORE: 1.5,
      DB_SIM_THRESHOLD: -0.1,
      TRIGRAM_HITS_MIN: 0,
      LEV_DISTANCE_MAX: 21,
    }).map((p) => p.message);
    expect(messages).toEqual([
      'HIGH_SCORE must be between 0 and 1',
      'MEDIUM_SCORE must be between 0 and 1',
      'HIGH_SCORE must be greater than MEDIUM_SCORE',
      'DB_SIM_THRESHOLD must be between 0 and 1',
      'TRIGRAM_HITS_MIN must be between 1 and 10',
      'LEV_DISTANCE_MAX must be between 1 and 20',
    ]);
  });

  it('rejects equal HIGH and MEDIUM scores and accepts the range ends', () => {
    expect(thresholdProblems({ ...DEFAULT_THRESHOLDS, HIGH_SCORE: 0.6 }).map((p) => p.key)).toEqual(['HIGH_SCORE']);
    expect(
      thresholdProblems({
        HIGH_SCORE: 1,
        MEDIUM_SCORE: 0,
        DB_SIM_THRESHOLD: 1,
        TRIGRAM_HITS_MIN: 10,
        LEV_DISTANCE_MAX: 20,
      }),
    ).toEqual([]);
  });
});
