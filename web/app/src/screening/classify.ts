import type { ScreeningLog } from '@vigil/proto';

/** Spec §9 defaults; a client's own thresholds come back with each screening. */
export const DEFAULT_HIGH_SCORE = 0.85;
export const DEFAULT_MEDIUM_SCORE = 0.6;

export type MatchStatus = 'blocked' | 'review' | 'clear';

/** Spec §4: blocked at or above HIGH_SCORE, review at or above MEDIUM_SCORE, otherwise clear. */
export function classifyScore(
  score: number,
  thresholds: { highScore: number; mediumScore: number } = {
    highScore: DEFAULT_HIGH_SCORE,
    mediumScore: DEFAULT_MEDIUM_SCORE,
  },
): MatchStatus {
  if (score >= thresholds.highScore) return 'blocked';
  if (score >= thresholds.mediumScore) return 'review';
  return 'clear';
}

/** Spec §4 match labels. */
export function matchLabel(score: number): string {
  if (score >= 0.95) return 'Exact Match';
  if (score >= 0.85) return 'High Confidence Match';
  if (score >= 0.6) return 'Partial Match';
  if (score > 0) return 'Low Confidence Match';
  return 'No Match';
}

/** Spec §4 log status: an alert is blocked; a match is classified by score; anything else is clear. */
export function logStatus(
  log: Pick<ScreeningLog, 'is_alert' | 'match_found' | 'score'> & Partial<Pick<ScreeningLog, 'cleared'>>,
): MatchStatus {
  // A block overturned on review is clear now; the log says who cleared it beside the badge.
  if (log.cleared) return 'clear';
  if (log.is_alert) return 'blocked';
  if (log.match_found) return classifyScore(log.score);
  return 'clear';
}

/** Spec §4 bulk status: the blocked flag, then any match, then clear. */
export function bulkStatus(item: { blocked: boolean; match: boolean }): MatchStatus {
  if (item.blocked) return 'blocked';
  return item.match ? 'review' : 'clear';
}

export const STATUS_LABEL: Readonly<Record<MatchStatus, string>> = {
  blocked: 'Blocked',
  review: 'Review',
  clear: 'Clear',
};

/** Spec §4 badge variants (destructive, secondary, default) in the shared badge's tones. */
export const STATUS_TONE = { blocked: 'destructive', review: 'warning', clear: 'success' } as const;

/** A 0..1 score as a percentage, capped at 100 (spec §3 risk_score). */
export function percent(score: number, digits = 0): string {
  return `${Math.min(100, score * 100).toFixed(digits)}%`;
}

/** Spec §5: the names of a bulk paste, one per non-blank line, trimmed. */
export function namesFromText(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** One bulk row as the gateway takes it: the name and the client's own reference, echoed in the result. */
export type BulkEntityRow = { name: string; reference: string };

/**
 * The rows of a bulk paste: a line is a name, or a name, a tab and the customer's reference (two
 * columns copied from a spreadsheet, or a CSV's name and reference columns); a line without one
 * is referenced by its row number, so every result says which input row it answers.
 */
export function bulkRowsFromText(text: string): BulkEntityRow[] {
  return namesFromText(text).map((line, index) => {
    const [name = '', reference = ''] = line.split('\t').map((cell) => cell.trim());
    return { name, reference: reference || `row ${index + 1}` };
  });
}

/** Spec §5 limits of the Bulk Search page. */
export const BULK_SYNC_LIMIT = 1000;
export const BULK_JOB_LIMIT = 100_000;
export const CSV_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

export type BulkInputProblem = { title: string; description: string };

/**
 * Spec §5: at least one name; at most 1,000 in the synchronous tab. Larger lists go to a
 * background job (up to 100,000, the gateway's limit), so nothing is sent that would be refused.
 */
export function checkBulkNames(names: string[], mode: 'sync' | 'job'): BulkInputProblem | null {
  if (names.length === 0) return { title: 'Input Required', description: 'Please enter at least one entity name' };
  if (mode === 'sync' && names.length > BULK_SYNC_LIMIT) {
    return { title: 'Batch Size Too Large', description: 'Maximum 1000 entities allowed per batch' };
  }
  if (names.length > BULK_JOB_LIMIT) {
    return { title: 'Batch Size Too Large', description: 'Maximum 100000 entities allowed per background job' };
  }
  const tooLong = names.find((name) => name.length > 300);
  if (tooLong)
    return { title: 'Name Too Long', description: `Names are limited to 300 characters: "${tooLong.slice(0, 40)}…"` };
  return null;
}

/** Spec §5 CSV upload checks, in order: the type, then the size. */
export function checkCsvFile(file: { name: string; size: number }): BulkInputProblem | null {
  if (!file.name.toLowerCase().endsWith('.csv'))
    return { title: 'Invalid file type', description: 'Please select a CSV file.' };
  if (file.size > CSV_UPLOAD_MAX_BYTES)
    return { title: 'File too large', description: 'Please select a file smaller than 10MB.' };
  return null;
}

/**
 * The names of a CSV file: the `name` column if the header has one, otherwise the first column.
 * Quoted fields may hold commas and doubled quotes.
 */
export function namesFromCsv(text: string): string[] {
  const rows = text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map(parseCsvLine);
  if (rows.length === 0) return [];
  const header = rows[0]!.map((cell) => cell.trim().toLowerCase());
  const column = header.indexOf('name');
  const body = column >= 0 ? rows.slice(1) : rows;
  const index = Math.max(column, 0);
  // A `reference` column rides along after a tab (bulkRowsFromText reads it back).
  const reference = column >= 0 ? header.indexOf('reference') : -1;
  return body
    .map((row) => [(row[index] ?? '').trim(), reference >= 0 ? (row[reference] ?? '').trim() : ''] as const)
    .filter(([name]) => name !== '')
    .map(([name, ref]) => (ref ? `${name}\t${ref}` : name));
}

function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}
