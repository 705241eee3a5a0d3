/**
 * The one CSV writer of the code base (issue #15, finding 8): every CSV a client downloads
 * (bulk job results, client lists, list datasets, audit exports) goes through `csvCell`.
 *
 * RFC 4180 quoting (a cell with `"`, `,`, `;`, CR or LF is quoted, quotes doubled), and defence
 * against formula injection: a piece of text that a spreadsheet would start a cell with — the
 * cell's start, or what follows a `;` when a semicolon-locale spreadsheet splits the line there —
 * gets a leading `'` if it begins with `=`, `+`, `-`, `@`, a tab or a CR. Numbers and booleans are
 * written as they are (a negative number is not a formula).
 */
const FORMULA_PIECE = /(^|;)([=+\-@\t\r])/g;
const NEEDS_QUOTES = /[",;\r\n]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = String(value);
  const safe = text.replace(FORMULA_PIECE, "$1'$2");
  return safe !== text || NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Rows of cells as CSV text: comma-separated, each line ended by CRLF. */
export function toCsv(rows: Iterable<readonly unknown[]>): string {
  let text = '';
  for (const row of rows) text += row.map(csvCell).join(',') + '\r\n';
  return text;
}
