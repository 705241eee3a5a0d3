import { CLIENT_LIST_COLUMNS, CLIENT_LIST_MAX_ROWS, csvCell } from '@vigil/proto';

// Pure CSV reading and writing for client lists: RFC 4180 fields (quotes, doubled quotes,
// separators and line breaks inside quotes), CRLF or LF, an optional UTF-8 BOM. Rows are
// numbered as a spreadsheet shows them: the header is row 1.

export type ClientListRow = { row: number; name: string; email: string | null; aliases: string[] };
export type CsvProblem = { row: number | null; detail: string };
export type ParsedClientList = { rows: ClientListRow[]; problems: CsvProblem[] };

const MAX_NAME = 300;
const MAX_EMAIL = 320;
const MAX_ALIASES = 50;
/** Problems reported at most, so a wrong file gives a readable answer, not 50,000 lines. */
export const MAX_REPORTED_PROBLEMS = 20;

type CsvRecord = { line: number; fields: string[] };

/** Splits CSV text into records with the line each starts on; blank lines are skipped. */
export function readCsvRecords(text: string): { records: CsvRecord[]; problem?: CsvProblem } {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let afterQuote = false;
  let line = 1;
  let recordLine = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0]!.trim() === '')) records.push({ line: recordLine, fields });
    fields = [];
    field = '';
    afterQuote = false;
  };
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
          afterQuote = true;
        }
      } else {
        if (c === '\n') line++;
        field += c;
      }
      continue;
    }
    if (c === ',') {
      fields.push(field);
      field = '';
      afterQuote = false;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else if (afterQuote) {
      if (c !== ' ' && c !== '\t')
        return { records, problem: { row: recordLine, detail: `Row ${recordLine}: text after a closing quote.` } };
    } else if (c === '"' && field.trim() === '') {
      field = '';
      quoted = true;
    } else {
      field += c;
    }
  }
  if (quoted)
    return { records, problem: { row: recordLine, detail: `Row ${recordLine}: a quoted field is never closed.` } };
  if (field !== '' || fields.length > 0) endRecord();
  return { records };
}

/** Reads a client list: a `name` column is required, `email` and `aliases` (separated by ; or |) are optional. */
export function parseClientList(text: string): ParsedClientList {
  const { records, problem } = readCsvRecords(text);
  if (problem) return { rows: [], problems: [problem] };
  const header = records[0];
  if (!header)
    return {
      rows: [],
      problems: [{ row: null, detail: 'The file is empty: it needs a header row with a name column.' }],
    };
  const columns = header.fields.map((f) => f.trim().toLowerCase());
  const nameAt = columns.indexOf('name');
  if (nameAt < 0) {
    return {
      rows: [],
      problems: [
        {
          row: 1,
          detail: 'Row 1: the header has no "name" column (name is required; email and aliases are optional).',
        },
      ],
    };
  }
  const emailAt = columns.indexOf('email');
  const aliasesAt = columns.indexOf('aliases');
  const data = records.slice(1);
  if (data.length === 0) return { rows: [], problems: [{ row: null, detail: 'The file has a header but no rows.' }] };
  if (data.length > CLIENT_LIST_MAX_ROWS) {
    return {
      rows: [],
      problems: [
        { row: null, detail: `The file has ${data.length} rows; a list holds at most ${CLIENT_LIST_MAX_ROWS}.` },
      ],
    };
  }
  const rows: ClientListRow[] = [];
  const problems: CsvProblem[] = [];
  for (const record of data) {
    const cell = (at: number) => (at >= 0 ? (record.fields[at] ?? '').trim() : '');
    const row = record.line;
    const name = cell(nameAt);
    const email = cell(emailAt);
    const aliases = cell(aliasesAt)
      .split(/[;|]/)
      .map((a) => a.trim())
      .filter((a) => a !== '');
    const extra = record.fields.slice(columns.length).some((f) => f.trim() !== '');
    if (extra) problems.push({ row, detail: `Row ${row}: more fields than the header has columns.` });
    if (name === '') problems.push({ row, detail: `Row ${row}: name is empty.` });
    else if (name.length > MAX_NAME)
      problems.push({ row, detail: `Row ${row}: name is longer than ${MAX_NAME} characters.` });
    if (email !== '' && (email.length > MAX_EMAIL || !/^[^\s@]+@[^\s@]+$/.test(email)))
      problems.push({ row, detail: `Row ${row}: "${email.slice(0, 80)}" is not an email address.` });
    if (aliases.length > MAX_ALIASES) problems.push({ row, detail: `Row ${row}: more than ${MAX_ALIASES} aliases.` });
    else if (aliases.some((a) => a.length > MAX_NAME))
      problems.push({ row, detail: `Row ${row}: an alias is longer than ${MAX_NAME} characters.` });
    rows.push({ row, name, email: email === '' ? null : email, aliases });
  }
  return { rows, problems };
}

/** One CSV field: quoted when it must be, and a leading =, +, - or @ defused so a spreadsheet shows text, not a formula. */
export function csvField(value: string): string {
  return csvCell(value);
}

export const CSV_HEADER = CLIENT_LIST_COLUMNS.join(',') + '\r\n';

export function toCsvLine(entry: { name: string; email: string | null; aliases: readonly string[] }): string {
  return [entry.name, entry.email ?? '', entry.aliases.join(';')].map(csvField).join(',') + '\r\n';
}
