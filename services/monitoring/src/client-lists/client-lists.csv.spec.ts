import { CLIENT_LIST_MAX_ROWS } from '@vigil/proto';
import { csvCell } from '@vigil/proto';
import { parseClientList, readCsvRecords, toCsvLine } from './client-lists.csv.js';

describe('client list CSV', () => {
  it('reads quoted fields with separators, doubled quotes and line breaks, CRLF, a BOM and blank lines', () => {
    const text =
      '\ufeffname,email,aliases\r\n"Doe, Jane",jane@example.com,"J. Doe; ""JD"""\r\n\r\n"Multi\nLine",,\nBob,,Rob|Bobby\n';
    const { rows, problems } = parseClientList(text);
    expect(problems).toEqual([]);
    expect(rows).toEqual([
      { row: 2, name: 'Doe, Jane', email: 'jane@example.com', aliases: ['J. Doe', '"JD"'] },
      { row: 4, name: 'Multi\nLine', email: null, aliases: [] },
      { row: 6, name: 'Bob', email: null, aliases: ['Rob', 'Bobby'] },
    ]);
  });

  it('finds the columns by header name in any order and case', () => {
    const { rows } = parseClientList('Email,NAME\nx@y.z,Ann\n');
    expect(rows).toEqual([{ row: 2, name: 'Ann', email: 'x@y.z', aliases: [] }]);
  });

  it('names the row of each problem', () => {
    const { problems } = parseClientList(
      'name,email\nAnn,ann@example.com\n,b@example.com\nCarl,not-an-email\nDora,,extra\n',
    );
    expect(problems.map((p) => p.row)).toEqual([3, 4, 5]);
    expect(problems[0]!.detail).toBe('Row 3: name is empty.');
    expect(problems[1]!.detail).toMatch(/^Row 4: .* is not an email address\.$/);
    expect(problems[2]!.detail).toBe('Row 5: more fields than the header has columns.');
  });

  it('refuses a file without a name column, an empty file, a header alone and an unclosed quote', () => {
    expect(parseClientList('email\nx@y.z\n').problems[0]!.detail).toMatch(/no "name" column/);
    expect(parseClientList('').problems[0]!.detail).toMatch(/empty/);
    expect(parseClientList('name\n').problems[0]!.detail).toMatch(/no rows/);
    expect(readCsvRecords('name\n"Ann\n').problem).toEqual({
      row: 2,
      detail: 'Row 2: a quoted field is never closed.',
    });
  });

  it('refuses more rows than a list holds', () => {
    const text = 'name\n' + 'x\n'.repeat(CLIENT_LIST_MAX_ROWS + 1);
    expect(parseClientList(text).problems[0]!.detail).toMatch(/at most 50000/);
    expect(parseClientList('name\n' + 'x\n'.repeat(CLIENT_LIST_MAX_ROWS)).rows).toHaveLength(CLIENT_LIST_MAX_ROWS);
  });

  it('writes rows that read back the same, with formulas defused', () => {
    const entry = { name: 'Doe, "Jane"', email: 'jane@example.com', aliases: ['JD', 'J. Doe'] };
    const back = parseClientList('name,email,aliases\r\n' + toCsvLine(entry)).rows[0]!;
    expect(back).toMatchObject(entry);
    expect(csvCell('=cmd()')).toBe(`"'=cmd()"`);
  });

  it('defuses every alias, so a spreadsheet splitting on ; sees no formula (issue #15)', () => {
    const line = toCsvLine({ name: 'Jane Doe', email: null, aliases: ['ok', '=2+2', '@SUM(A1)'] });
    // Each piece a semicolon-locale spreadsheet would make a cell of starts harmlessly.
    for (const piece of line.trimEnd().split(/[,;]/)) expect(piece.replace(/^"/, '')).not.toMatch(/^[=+\-@\t\r]/);
    expect(parseClientList('name,email,aliases\r\n' + line).rows[0]!.aliases).toEqual(['ok', "'=2+2", "'@SUM(A1)"]);
  });
});
