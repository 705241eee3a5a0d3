import type { RefreshOutcome } from '@vigil/proto';

/** The toast after "Refresh now", in the words of the outcome screening reported. */
export function describeOutcome(outcome: RefreshOutcome): { title: string; description: string; failed: boolean } {
  switch (outcome.outcome) {
    case 'updated': {
      const d = outcome.delta;
      const change = d ? ` (+${d.added} added, ${d.changed} changed, −${d.removed} removed)` : '';
      return {
        title: 'List updated',
        description: `${outcome.source} is now version ${outcome.versionId}${change}.`,
        failed: false,
      };
    }
    case 'unchanged':
      return {
        title: 'List unchanged',
        description: `${outcome.source} has not changed since version ${outcome.versionId}.`,
        failed: false,
      };
    case 'busy':
      return {
        title: 'Refresh already running',
        description: `${outcome.source} is being refreshed already.`,
        failed: false,
      };
    case 'failed':
      return {
        title: 'Refresh failed',
        description: outcome.error ?? `${outcome.source} could not be refreshed.`,
        failed: true,
      };
  }
}
