// The one CSV writer for every export: RFC 4180 quoting plus a defence against formula
// injection. A spreadsheet treats a cell starting with =, +, -, @, a tab or a carriage return
// as a formula (=HYPERLINK(...) can leak data or phish); such a cell gets a leading apostrophe
// and quotes, so it opens as text.

const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field. null and undefined are empty; objects are written as JSON. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  const defused = FORMULA_START.test(text);
  if (defused) text = `'${text}`;
  return defused || /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
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
