import type { ScreeningDecision } from '@vigil/proto';
import { formatDateTime } from './parts.js';
import { reasonLabel } from './review-reasons.js';

/**
 * Who decided a blocked screening's case, when and why, in one line: on its alert and its log, so
 * a cleared block never reads as if the engine had let it through.
 */
export function ScreeningDecisionNote({
  verb,
  decision,
  testId,
}: {
  verb: string;
  decision: ScreeningDecision;
  testId: string;
}) {
  const why = reasonLabel(decision.reason_code) + (decision.note ? `: ${decision.note}` : '');
  return (
    <p className="mt-1 text-xs break-words text-muted-foreground" data-testid={testId}>
      {verb} by <strong className="text-foreground">{decision.by_email ?? '—'}</strong> on {formatDateTime(decision.at)}{' '}
      · {why}
    </p>
  );
}
