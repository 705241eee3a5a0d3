import {
  adminActionEventSchema,
  reviewDecidedEventSchema,
  screenedEventSchema,
  securityEventSchema,
  subjects,
} from '@vigil/proto';
import type { z } from 'zod';
import {
  adminActionRow,
  reviewDecisionRow,
  screeningEventRow,
  securityEventRow,
  type AuditRow,
} from '../trail/audit-records.js';

export class UnreadableEvent extends Error {}

function parse<S extends z.ZodType>(schema: S, subject: string, payload: unknown): z.infer<S> {
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    throw new UnreadableEvent(
      `${subject}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

/** The audit row for an event, validated against its contract in proto. */
export function rowOf(subject: string, payload: unknown): AuditRow {
  switch (subject) {
    case subjects.gateway.securityEvent:
      return securityEventRow(parse(securityEventSchema, subject, payload));
    case subjects.screening.screened:
      return screeningEventRow(parse(screenedEventSchema, subject, payload));
    case subjects.screening.reviewDecided:
      return reviewDecisionRow(parse(reviewDecidedEventSchema, subject, payload));
    case subjects.gateway.adminAction:
      return adminActionRow(parse(adminActionEventSchema, subject, payload));
    default:
      throw new UnreadableEvent(`no audit record for subject ${subject}`);
  }
}
