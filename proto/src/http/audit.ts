import { z } from 'zod';
import { SECURITY_EVENT_TYPES } from '../auth/events.js';
import {
  evidenceRecordSchema,
  SECURITY_LOG_TIME_FILTERS,
  SECURITY_LOGS_PAGE_DEFAULT,
  SECURITY_LOGS_PAGE_MAX,
} from '../audit/requests.js';

/**
 * GET /api/client/admin/logs (and /export): the Security & Compliance Logs panel's filters.
 * `eventType=all` (or none) means every type; `timeFilter` none means all.
 */
export const securityLogsQuerySchema = z.object({
  eventType: z.enum(['all', ...SECURITY_EVENT_TYPES]).optional(),
  timeFilter: z.enum(SECURITY_LOG_TIME_FILTERS).optional(),
  searchTerm: z.string().trim().max(200).optional(),
  limit: z.number().int().min(1).max(SECURITY_LOGS_PAGE_MAX).default(SECURITY_LOGS_PAGE_DEFAULT),
  offset: z.number().int().min(0).max(1_000_000).default(0),
});

/** YYYY-MM-DD or an ISO 8601 instant with its offset. */
const dateOrInstant = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/** GET /api/client/audit/screenings: the client's own evidence; `from` and `to` inclusive. */
export const evidenceQuerySchema = z.object({
  from: dateOrInstant.optional().describe('YYYY-MM-DD or an ISO 8601 instant; inclusive.'),
  to: dateOrInstant.optional().describe('YYYY-MM-DD (the whole day) or an ISO 8601 instant; inclusive.'),
  format: z
    .enum(['json', 'ndjson', 'csv'])
    .default('json')
    .describe('json: one document; ndjson: one record per line (streams into any tool); csv: one row per record.'),
});

export type SecurityLogsQuery = z.infer<typeof securityLogsQuerySchema>;
export type EvidenceQuery = z.infer<typeof evidenceQuerySchema>;

/** `GET /api/client/audit/screenings` (JSON): the client's evidence in the window, every record of its chain. */
export const evidenceDocumentSchema = z.object({
  clientId: z.string(),
  chain: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  records: z.array(evidenceRecordSchema),
});
