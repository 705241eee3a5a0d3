import { z } from 'zod';
import { SECURITY_EVENT_TYPES } from '../auth/events.js';

export const SECURITY_LOG_TIME_FILTERS = ['1h', '24h', '7d', '30d', 'all'] as const;
export const SECURITY_LOGS_PAGE_DEFAULT = 100;
export const SECURITY_LOGS_PAGE_MAX = 1_000;

/** `audit.v1.security-logs.list`: the admin console's Security & Compliance Logs panel. */
export const securityLogsRequestSchema = z.object({
  eventType: z.enum(SECURITY_EVENT_TYPES).optional(),
  timeFilter: z.enum(SECURITY_LOG_TIME_FILTERS).default('all'),
  searchTerm: z.string().trim().max(200).optional(),
  limit: z.number().int().min(1).max(SECURITY_LOGS_PAGE_MAX).default(SECURITY_LOGS_PAGE_DEFAULT),
  offset: z.number().int().min(0).max(1_000_000).default(0),
  /** Export paging: only rows recorded before this row (newest recorded first), instead of offset. */
  beforeSeq: z.number().int().positive().optional(),
});

export const securityLogSchema = z.object({
  id: z.string(),
  event: z.enum(SECURITY_EVENT_TYPES),
  timestamp: z.string(),
  details: z.object({
    ip: z.string().nullable(),
    endpoint: z.string(),
    method: z.string().nullable(),
    adminEmail: z.string().nullable(),
    clientName: z.string().nullable(),
    clientId: z.string().nullable(),
    userId: z.string().nullable(),
    requestId: z.string().nullable(),
    reason: z.string().nullable(),
  }),
  /** The audit row: its place in the chain and its hash. */
  seq: z.number().int(),
  hash: z.string(),
});

export const securityLogsSummarySchema = z.object({
  total: z.number().int(),
  failedAuth: z.number().int(),
  adminAccess: z.number().int(),
  clientAccess: z.number().int(),
  suspicious: z.number().int(),
  rateLimited: z.number().int(),
});

export const securityLogsResponseSchema = z.object({
  logs: z.array(securityLogSchema),
  /** Rows matching every filter, for paging. */
  total: z.number().int(),
  /** The panel's counts under the time filter and search term (not the event type). */
  summary: securityLogsSummarySchema,
  limit: z.number().int(),
  offset: z.number().int(),
});

export const EVIDENCE_KINDS = ['screening', 'review_decision', 'admin_action', 'retention_checkpoint'] as const;
export const EVIDENCE_PAGE_MAX = 1_000;
/**
 * A page of evidence also ends once its records reach this many bytes of JSON: a record carries
 * its canonical text beside its fields (~1.2 KB for a screening), so 1,000 of them overran the
 * bus's 1 MiB message limit and the export answered 504. Half of it leaves room for the envelope.
 */
export const EVIDENCE_PAGE_BYTES = 512 * 1024;

/** `audit.v1.evidence.page`: one page of a client's own chain (screenings, review decisions, admin actions). */
export const evidencePageRequestSchema = z.object({
  clientId: z.string().min(1),
  /** ISO instants; `to` is exclusive. */
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  afterSeq: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(EVIDENCE_PAGE_MAX).default(EVIDENCE_PAGE_MAX),
});

export const evidenceRecordSchema = z.object({
  kind: z.enum(EVIDENCE_KINDS),
  chain: z.string(),
  seq: z.number().int(),
  occurredAt: z.string(),
  actorId: z.string().nullable(),
  /** Screenings: what was screened, the decision and the list versions it was screened against. */
  screeningId: z.string().nullable(),
  searchedName: z.string().nullable(),
  searchedEmail: z.string().nullable(),
  status: z.string().nullable(),
  score: z.number().nullable(),
  matchedName: z.string().nullable(),
  sourceList: z.string().nullable(),
  listVersions: z.array(z.object({ source: z.string(), versionId: z.number().int() })).nullable(),
  /** Review decisions and admin actions. */
  decision: z.string().nullable(),
  action: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  prevHash: z.string(),
  hash: z.string(),
  /** The exact text hashed: hash = sha256(prevHash ‖ canonical). */
  canonical: z.string(),
});

export const evidencePageResponseSchema = z.object({
  chain: z.string(),
  records: z.array(evidenceRecordSchema),
  /** Pass as afterSeq for the next page; null when this was the last. A page ends at `limit` or EVIDENCE_PAGE_BYTES. */
  nextAfterSeq: z.number().int().nullable(),
});

export type SecurityLogsRequest = z.input<typeof securityLogsRequestSchema>;
export type ParsedSecurityLogsRequest = z.infer<typeof securityLogsRequestSchema>;
export type SecurityLog = z.infer<typeof securityLogSchema>;
export type SecurityLogsSummary = z.infer<typeof securityLogsSummarySchema>;
export type SecurityLogsResponse = z.infer<typeof securityLogsResponseSchema>;
export type EvidencePageRequest = z.input<typeof evidencePageRequestSchema>;
export type ParsedEvidencePageRequest = z.infer<typeof evidencePageRequestSchema>;
export type EvidenceRecord = z.infer<typeof evidenceRecordSchema>;
export type EvidencePageResponse = z.infer<typeof evidencePageResponseSchema>;
