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
