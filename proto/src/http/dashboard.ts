/** One UTC day of a client's screenings, for the dashboard's charts. */
export type UsageDay = {
  /** YYYY-MM-DD (UTC). */
  date: string;
  /** Names screened that day (a bulk request counts each name). */
  screenings: number;
  /** Screenings with a match at or above the review threshold. */
  matches: number;
  blocked: number;
};

/** `GET /api/client/usage-history`: the last 30 days, oldest first, every day present, with the quota. */
export type UsageHistoryResponse = {
  days: UsageDay[];
  quota: number;
  /** Usage in the current usage period, as GET /api/status counts it. */
  usage: number;
  periodStart: string;
  periodEnd: string;
};

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
] as const;
