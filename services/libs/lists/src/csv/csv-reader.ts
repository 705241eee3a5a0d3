// A small streaming CSV/TSV record reader. csv-parse was the first choice, but every entry
// point of it (even csv-parse/sync) relies on Node's Buffer or node:stream, which this pure
// library must not, and it rejects the real CSL file whose last record is cut off inside a
// quoted field. This reader follows RFC 4180 (quoted fields, "" escapes, CRLF or LF, newlines
// inside quotes) and is lenient where the official files are not clean: an unterminated quote
// at end of file ends the field, text after a closing quote is kept, and blank lines or the
// 0x1A end-of-file byte OFAC appends produce no record.

export type CsvOptions = {
  /** Field separator: ',' (default), ';' for the EU file, '\t' for the BIS DPL. */
  delimiter?: string;
};

const QUOTE = 34; // "
const CR = 13;
const LF = 10;

type ParseResult = { records: string[][]; rest: string };

/** The Ctrl-Z (0x1A) byte OFAC ends its files with. */
export const EOF_MARK = String.fromCharCode(0x1a);

function isBlankRecord(record: string[]): boolean {
  if (record.length !== 1) return false;
  const only = (record[0] ?? '').trim();
  return only === '' || only === EOF_MARK;
}

/**
 * Parse every complete record in `text`. When `final` is false, an incomplete trailing record
 * is returned in `rest` to be prefixed to the next chunk.
 */
function parseRecords(text: string, delimiter: number, final: boolean): ParseResult {
  const records: string[][] = [];
  const n = text.length;
  let i = 0;
  let recordStart = 0;
  let record: string[] = [];

  while (true) {
    if (i >= n) {
      if (!final) return { records, rest: text.slice(recordStart) };
      if (record.length > 0) {
        // The last field of a file without a final newline (empty after a trailing delimiter).
        record.push('');
        if (!isBlankRecord(record)) records.push(record);
      }
      return { records, rest: '' };
    }

    let value: string;
    if (text.charCodeAt(i) === QUOTE) {
      let j = i + 1;
      value = '';
      let closed = false;
      while (true) {
        const k = text.indexOf('"', j);
        if (k < 0) {
          if (!final) return { records, rest: text.slice(recordStart) };
          value += text.slice(j); // unterminated quote at end of file: keep what is there
          i = n;
          break;
        }
        if (k + 1 >= n && !final) return { records, rest: text.slice(recordStart) };
        if (text.charCodeAt(k + 1) === QUOTE) {
          value += text.slice(j, k + 1);
          j = k + 2;
          continue;
        }
        value += text.slice(j, k);
        i = k + 1;
        closed = true;
        break;
      }
      if (closed) {
        // Anything between the closing quote and the separator (e.g. `"x" `) is kept.
        let k = i;
        while (k < n) {
          const c = text.charCodeAt(k);
          if (c === delimiter || c === CR || c === LF) break;
          k++;
        }
        if (k >= n && !final) return { records, rest: text.slice(recordStart) };
        if (k > i) value += text.slice(i, k);
        i = k;
      }
    } else {
      let k = i;
      while (k < n) {
        const c = text.charCodeAt(k);
        if (c === delimiter || c === CR || c === LF) break;
        k++;
      }
      if (k >= n && !final) return { records, rest: text.slice(recordStart) };
      value = text.slice(i, k);
      i = k;
    }

    record.push(value);
    if (i >= n) {
      if (!isBlankRecord(record)) records.push(record);
      return { records, rest: '' };
    }
    const c = text.charCodeAt(i);
    if (c === delimiter) {
      i++;
      continue;
    }
    // End of record: CRLF, LF or a lone CR.
    if (c === CR && i + 1 >= n && !final) return { records, rest: text.slice(recordStart) };
    i += c === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
    if (!isBlankRecord(record)) records.push(record);
    record = [];
    recordStart = i;
  }
}

/**
 * Records of a CSV text stream in batches (all complete records of each chunk), which spares
 * whole-file parsers one async step per record.
 */
export async function* readCsvBatches(
  chunks: AsyncIterable<string>,
  options: CsvOptions = {},
): AsyncGenerator<string[][]> {
  const delimiter = (options.delimiter ?? ',').charCodeAt(0);
  let pending = '';
  for await (const chunk of chunks) {
    const { records, rest } = parseRecords(pending + chunk, delimiter, false);
    pending = rest;
    if (records.length > 0) yield records;
  }
  const { records } = parseRecords(pending, delimiter, true);
  if (records.length > 0) yield records;
}

/** Records of a CSV text stream, each an array of raw field strings. */
export async function* readCsvRecords(
  chunks: AsyncIterable<string>,
  options: CsvOptions = {},
): AsyncGenerator<string[]> {
  for await (const batch of readCsvBatches(chunks, options)) yield* batch;
}

/** All records of a CSV string (used for format sniffing and by whole-file parsers). */
export function parseCsvText(text: string, options: CsvOptions = {}): string[][] {
  return parseRecords(text, (options.delimiter ?? ',').charCodeAt(0), true).records;
}

/**
 * Complete records at the start of a possibly truncated text (a file's first bytes): the
 * last, possibly cut, record is dropped unless the text is all there is.
 */
export function parseCsvHead(text: string, options: CsvOptions = {}): string[][] {
  const { records, rest } = parseRecords(text, (options.delimiter ?? ',').charCodeAt(0), false);
  return records.length > 0 || !rest ? records : parseCsvText(rest, options);
}
