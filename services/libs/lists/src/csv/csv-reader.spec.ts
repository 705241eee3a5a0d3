import { parseCsvHead, parseCsvText, readCsvRecords } from './csv-reader.js';

async function* pieces(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function read(text: string, size: number, delimiter = ','): Promise<string[][]> {
  const out: string[][] = [];
  for await (const record of readCsvRecords(pieces(text, size), { delimiter })) out.push(record);
  return out;
}

describe('readCsvRecords', () => {
  const text = '36,"AEROCARIBBEAN, ""AC""",-0- \r\n306,"line one\nline two",\r\n\r\n7,x,"y"\n';
  const expected = [
    ['36', 'AEROCARIBBEAN, "AC"', '-0- '],
    ['306', 'line one\nline two', ''],
    ['7', 'x', 'y'],
  ];

  it('reads quoted fields, doubled quotes, embedded newlines, CRLF and LF, and skips blank lines', async () => {
    expect(await read(text, 1000)).toEqual(expected);
  });

  it('gives the same records whatever the chunk boundaries', async () => {
    for (let size = 1; size <= text.length; size++) expect(await read(text, size)).toEqual(expected);
  });

  it('ignores the 0x1A end-of-file byte OFAC appends', async () => {
    expect(await read('12300,"remarks"\r\n\u001a', 4)).toEqual([['12300', 'remarks']]);
  });

  it('keeps the text of a quoted field that the file cuts off before its closing quote', async () => {
    expect(await read('1,"a"\n2,"cut off in the mid', 5)).toEqual([
      ['1', 'a'],
      ['2', 'cut off in the mid'],
    ]);
  });

  it('reads other delimiters and keeps text after a closing quote', async () => {
    expect(await read('"Name"\t"City"\n"I. ASH"\tSEAGOVILLE\n', 3, '\t')).toEqual([
      ['Name', 'City'],
      ['I. ASH', 'SEAGOVILLE'],
    ]);
    expect(parseCsvText('"a" ;b', { delimiter: ';' })).toEqual([['a ', 'b']]);
  });

  it('parseCsvHead drops a record cut at the end of the head', () => {
    expect(parseCsvHead('1,2,3\n4,"5')).toEqual([['1', '2', '3']]);
    expect(parseCsvHead('1,2,3')).toEqual([['1', '2', '3']]);
  });
});
