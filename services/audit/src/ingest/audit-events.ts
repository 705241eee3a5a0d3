import { events, type EventContract, type PayloadOf } from '@vigil/proto';
import {
  adminActionRow,
  clientChangeRow,
  failedSignInRow,
  memoryChangeRow,
  monitoringChangeRow,
  reviewDecisionRow,
  reviewSettingsChangeRow,
  screeningEventRow,
  securityEventRow,
  type AuditRow,
} from '../trail/audit-records.js';

export class UnreadableEvent extends Error {}

function parse<E extends EventContract>(event: E, payload: unknown): PayloadOf<E> {
  const parsed = event.schema.safeParse(payload);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new UnreadableEvent(`${event.subject}: ${issues}`);
  }
  return parsed.data as PayloadOf<E>;
}

/** The audit row for an event, validated against its contract in proto. */
export function rowOf(subject: string, payload: unknown): AuditRow {
  switch (subject) {
    case events.gateway.securityEvent.subject:
      return securityEventRow(parse(events.gateway.securityEvent, payload));
    case events.screening.screened.subject:
      return screeningEventRow(parse(events.screening.screened, payload));
    case events.screening.reviewDecided.subject:
      return reviewDecisionRow(parse(events.screening.reviewDecided, payload));
    case events.screening.memoryChanged.subject:
      return memoryChangeRow(parse(events.screening.memoryChanged, payload));
    case events.screening.reviewSettingsChanged.subject:
      return reviewSettingsChangeRow(parse(events.screening.reviewSettingsChanged, payload));
    case events.auth.clientChanged.subject:
      return clientChangeRow(parse(events.auth.clientChanged, payload));
    case events.monitoring.clientChanged.subject:
      return monitoringChangeRow(parse(events.monitoring.clientChanged, payload));
    case events.auth.failedAuth.subject:
      return failedSignInRow(parse(events.auth.failedAuth, payload));
    case events.gateway.adminAction.subject:
      return adminActionRow(parse(events.gateway.adminAction, payload));
    default:
      throw new UnreadableEvent(`no audit record for subject ${subject}`);
  }
}
