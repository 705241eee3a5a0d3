import { csvCell, toCsv } from './csv.js';

describe('csvCell', () => {
  it('leaves plain text and numbers alone', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(0.93)).toBe('0.93');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes separators, quotes and line breaks (RFC 4180), semicolons too', () => {
    expect(csvCell('Doe, Jane')).toBe('"Doe, Jane"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('JD;J. Doe')).toBe('"JD;J. Doe"');
  });

  it.each(['=', '+', '-', '@', '\t', '\r'])('defuses a cell starting with %j', (start) => {
    expect(csvCell(`${start}1+1`)).toBe(`"'${start}1+1"`);
  });

  it('defuses what follows a semicolon, where a semicolon-locale spreadsheet starts a cell', () => {
    expect(csvCell('ok;=2+2')).toBe(`"ok;'=2+2"`);
    expect(csvCell('=HYPERLINK("x");@cmd')).toBe(`"'=HYPERLINK(""x"");'@cmd"`);
  });
});

describe('toCsv', () => {
  it('writes CRLF-ended rows of escaped cells', () => {
    expect(
      toCsv([
        ['name', 'score'],
        ['=evil', 0.5],
      ]),
    ).toBe(`name,score\r\n"'=evil",0.5\r\n`);
  });
});
