import { describeOutcome } from './refresh-outcome.js';

const base = { source: 'ofac-sdn', versionId: 13, delta: null, error: null, durationMs: 12 };

describe('describeOutcome', () => {
  it('names the new version and what changed', () => {
    expect(describeOutcome({ ...base, outcome: 'updated', delta: { added: 1, changed: 0, removed: 2 } })).toEqual({
      title: 'List updated',
      description: 'ofac-sdn is now version 13 (+1 added, 0 changed, −2 removed).',
      failed: false,
    });
  });

  it('says when nothing changed, a refresh is already running, or it failed', () => {
    expect(describeOutcome({ ...base, outcome: 'unchanged' }).title).toBe('List unchanged');
    expect(describeOutcome({ ...base, outcome: 'busy' }).title).toBe('Refresh already running');
    expect(describeOutcome({ ...base, outcome: 'failed', versionId: null, error: 'fetch: HTTP 503' })).toEqual({
      title: 'Refresh failed',
      description: 'fetch: HTTP 503',
      failed: true,
    });
  });
});
