import { csvCell, csvLine, toCsv } from './csv.js';

describe('csv', () => {
  it('quotes separators and quotes, and leaves plain text and numbers alone', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('Doe, Jane')).toBe('"Doe, Jane"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(0.93)).toBe('0.93');
    expect(csvCell(null)).toBe('');
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
  });

  it('defuses every formula start: = + - @ tab and CR', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      const cell = csvCell(`${start}1+1`);
      expect(cell.startsWith(`"'${start}`)).toBe(true);
    }
    expect(csvCell(-5)).toBe(`"'-5"`);
  });

  it('writes CRLF lines with a header', () => {
    expect(csvLine(['a', 'b'])).toBe('a,b\r\n');
    expect(toCsv(['name', 'n'], [['=1', 2]])).toBe(`name,n\r\n"'=1",2\r\n`);
  });
});

describe('csv in a semicolon-locale spreadsheet (issue #15)', () => {
  it('quotes a ; so the cell stays one cell', () => {
    expect(csvCell('JD;J. Doe')).toBe('"JD;J. Doe"');
  });

  it('defuses what follows a ;, where such a spreadsheet starts a cell of its own', () => {
    expect(csvCell('ok;=2+2')).toBe(`"ok;'=2+2"`);
    expect(csvCell('=HYPERLINK("x");@cmd')).toBe(`"'=HYPERLINK(""x"");'@cmd"`);
  });
});

describe('csv cells of several lines', () => {
  it('defuses a formula that starts any line of the cell, not only the first', () => {
    expect(csvCell('Jane Doe\n=HYPERLINK("http://x","y")')).toBe(`"Jane Doe\n'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('note\r\n+1+1')).toBe(`"note\r\n'+1+1"`);
    expect(csvCell('a\r@SUM(A1)')).toBe(`"a\r'@SUM(A1)"`);
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      expect([start, csvCell(`first line\n${start}cmd`)]).toEqual([start, `"first line\n'${start}cmd"`]);
    }
    // A CR that starts the cell is itself defused, and so is a formula on the line it begins.
    expect(csvCell('\r=1')).toBe(`"'\r'=1"`);
  });
});
