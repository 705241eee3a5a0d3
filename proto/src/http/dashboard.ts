import { z } from 'zod';
import { screenResponseSchema, screenResultSchema } from '../screening/screen.js';
/** One UTC day of a client's screenings, for the dashboard's charts. */
export const usageDaySchema = z.object({
  /** YYYY-MM-DD (UTC). */
  date: z.string(),
  /** Names screened that day (a bulk request counts each name). */
  screenings: z.number().int(),
  /** Screenings with a match at or above the review threshold. */
  matches: z.number().int(),
  blocked: z.number().int(),
});
export type UsageDay = z.infer<typeof usageDaySchema>;

/** `GET /api/client/usage-history`: the last 30 days, oldest first, every day present, with the quota. */
export const usageHistoryResponseSchema = z.object({
  days: z.array(usageDaySchema),
  quota: z.number(),
  /** Usage in the current usage period, as GET /api/status counts it. */
  usage: z.number(),
  periodStart: z.string(),
  periodEnd: z.string(),
});
export type UsageHistoryResponse = z.infer<typeof usageHistoryResponseSchema>;

/** `GET /api/client/reports/{kind}`: the Downloads & Reports page's files (spec §9 file names). */
export const REPORT_KINDS = ['screening-logs', 'sanction-alerts', 'sanctions-export', 'sanctions-data'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** The CSV columns of a screening-log export, spec §9, in order. */
export const SCREENING_LOG_CSV_COLUMNS = [
  'ID',
  'Searched Name',
  'Match Found',
  'Sanctioned Entity ID',
  'Source List',
  'Score',
  'Tier',
  'Is Alert',
  'Created At',
  'Screened By',
] as const;

const top = screenResultSchema.shape;

/** `POST /api/screen`: screening's full answer plus the top match's fields the dashboard reads. */
export const dashboardScreenResponseSchema = screenResponseSchema.extend({
  id: top.id.nullable(),
  name: top.name.nullable(),
  score: z.number(),
  source_dataset: top.sourceDataset.nullable(),
  blocked: z.boolean(),
  details: z
    .object({ programs: top.programs, matchedName: top.matchedName, label: top.label, explanation: z.string() })
    .nullable(),
  message: z.string(),
});
export type DashboardScreenResponse = z.infer<typeof dashboardScreenResponseSchema>;
