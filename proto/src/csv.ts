// The one CSV writer for every export (bulk job results, client lists, list datasets, audit
// exports): RFC 4180 quoting plus a defence against formula injection. A spreadsheet treats a
// cell starting with =, +, -, @, a tab or a carriage return as a formula (=HYPERLINK(...) can
// leak data or phish); such a cell gets a leading apostrophe and quotes, so it opens as text.
// A semicolon-locale spreadsheet also starts a cell after every `;` (issue #15: aliases joined
// as `ok;=2+2`), so a formula start after a `;` is defused too, and a `;` is quoted. A formula
// can also start after a line break inside the cell (a reader that splits lines, or a pasted
// cell, sees it as a cell of its own), so every line's start is defused as well.

/** Where a formula could start: the cell's start, after a `;`, after a line feed or carriage return. */
const FORMULA_START = /(?<=^|[;\n\r])(?=[=+\-@\t\r])/g;
const NEEDS_QUOTES = /[",;\r\n]/;

/** One CSV field. null and undefined are empty; objects are written as JSON. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  const safe = text.replace(FORMULA_START, "'");
  return safe !== text || NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV line (CRLF-terminated, as RFC 4180 has it). */
export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** A whole CSV document: a header line, then one line per row. */
export function toCsv(header: readonly string[], rows: Iterable<readonly unknown[]>): string {
  let out = csvLine(header);
  for (const row of rows) out += csvLine(row);
  return out;
}
