import { fixtureBytes } from '../test/helpers.js';
import { DETECT_HEAD_BYTES, detectFormat, groupSources, type FileFormat } from './formats.js';
import { decodeHead } from './text/decode.js';

const head = (path: string): string => decodeHead(fixtureBytes(path).subarray(0, DETECT_HEAD_BYTES));

describe('detectFormat', () => {
  const cases: [string, FileFormat][] = [
    ['ofac_sdn/sdn.csv', 'ofac-csv-main'],
    ['ofac_sdn/add.csv', 'ofac-csv-addresses'],
    ['ofac_sdn/alt.csv', 'ofac-csv-aliases'],
    ['ofac_sdn/sdn_comments.csv', 'ofac-csv-comments'],
    ['ofac_cons/cons_prim.csv', 'ofac-csv-main'],
    ['ofac_xml/SDN.XML', 'ofac-xml'],
    ['ofac_advanced/SDN_ADVANCED.XML', 'ofac-advanced-xml'],
    ['un/UN_consolidated.xml', 'un-xml'],
    ['eu/eu_fsf.csv', 'eu-fsf-csv'],
    ['eu/eu_fsf.xml', 'eu-fsf-xml'],
    ['uk/sanctionsconlist.csv', 'uk-ofsi-csv'],
    ['uk/UK_Sanctions_List.csv', 'uk-sanctions-list-csv'],
    ['csl/csl.csv', 'us-csl-csv'],
    ['dpl/dpl.txt', 'us-bis-dpl-tsv'],
    ['ftm/entities.ftm.jsonl', 'ftm-jsonl'],
  ];

  it.each(cases)('%s is %s', (path, format) => {
    expect(detectFormat(path, head(path))).toBe(format);
  });

  it.each(cases)('%s is recognised by its content under another name', (path, format) => {
    if (path.endsWith('sdn_comments.csv')) return; // covered below: a short comments file needs its name
    expect(detectFormat('download (3).dat', head(path))).toBe(format);
  });

  it('recognises an empty OFAC comments file (only the 0x1A byte) by its name alone', () => {
    expect(detectFormat('ofac_cons/cons_comments.csv', head('ofac_cons/cons_comments.csv'))).toBe('ofac-csv-comments');
    expect(detectFormat('whatever.csv', '\u001a')).toBeNull();
  });

  it('does not claim files it cannot read', () => {
    expect(detectFormat('README.md', '# Real sanctions snapshots\n')).toBeNull();
    expect(detectFormat('data.csv', 'a,b,c\n1,2,3\n')).toBeNull();
    expect(detectFormat('data.xml', '<?xml version="1.0"?><rss></rss>')).toBeNull();
    expect(detectFormat('data.json', '{"name": "x"}\n')).toBeNull();
    expect(detectFormat('empty.csv', '')).toBeNull();
  });
});

describe('groupSources', () => {
  it('joins the OFAC CSV files of one folder and family; every other file is its own source', () => {
    const { sources, unused } = groupSources([
      { path: 'b/un.xml', format: 'un-xml' },
      { path: 'a/sdn_comments.csv', format: 'ofac-csv-comments' },
      { path: 'a/alt.csv', format: 'ofac-csv-aliases' },
      { path: 'a/cons_alt.csv', format: 'ofac-csv-aliases' },
      { path: 'a/sdn.csv', format: 'ofac-csv-main' },
      { path: 'a/cons_prim.csv', format: 'ofac-csv-main' },
      { path: 'a/add.csv', format: 'ofac-csv-addresses' },
      { path: 'c/add.csv', format: 'ofac-csv-addresses' },
      { path: 'd/ftm.json', format: 'ftm-jsonl' },
    ]);
    expect(sources).toEqual([
      {
        listId: 'ofac-cons',
        format: 'ofac-csv',
        files: [
          { path: 'a/cons_prim.csv', role: 'main' },
          { path: 'a/cons_alt.csv', role: 'aliases' },
        ],
      },
      {
        listId: 'ofac-sdn',
        format: 'ofac-csv',
        files: [
          { path: 'a/sdn.csv', role: 'main' },
          { path: 'a/add.csv', role: 'addresses' },
          { path: 'a/alt.csv', role: 'aliases' },
          { path: 'a/sdn_comments.csv', role: 'comments' },
        ],
      },
      { listId: 'un-sc', format: 'un-xml', files: [{ path: 'b/un.xml', role: 'main' }] },
      { listId: 'opensanctions', format: 'ftm-jsonl', files: [{ path: 'd/ftm.json', role: 'main' }] },
    ]);
    expect(unused).toEqual([{ path: 'c/add.csv', format: 'ofac-csv-addresses' }]);
  });

  it('attaches renamed companions to the only main file of their folder', () => {
    const { sources } = groupSources([
      { path: 'x/list.csv', format: 'ofac-csv-main' },
      { path: 'x/aliases.csv', format: 'ofac-csv-aliases' },
    ]);
    expect(sources[0]?.files.map((f) => f.role)).toEqual(['main', 'aliases']);
  });
});
