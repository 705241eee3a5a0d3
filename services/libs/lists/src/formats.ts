import type { ListId } from './entity.js';
import { EOF_MARK, parseCsvHead } from './csv/csv-reader.js';

// Which list format a file is in, decided from its first bytes (so a renamed file still
// works) with the file name used only where content cannot tell (OFAC SDN vs consolidated
// use identical layouts), and how a folder's files combine into sources.

/** The format of one file. The four OFAC CSV files are roles of one source. */
export type FileFormat =
  | 'ofac-csv-main'
  | 'ofac-csv-addresses'
  | 'ofac-csv-aliases'
  | 'ofac-csv-comments'
  | 'ofac-xml'
  | 'ofac-advanced-xml'
  | 'un-xml'
  | 'eu-fsf-csv'
  | 'eu-fsf-xml'
  | 'uk-ofsi-csv'
  | 'uk-sanctions-list-csv'
  | 'us-csl-csv'
  | 'us-bis-dpl-tsv'
  | 'ftm-jsonl';

/** The format of a source (one or more files parsed together). */
export type SourceFormat =
  | 'ofac-csv'
  | 'ofac-xml'
  | 'ofac-advanced-xml'
  | 'un-xml'
  | 'eu-fsf-csv'
  | 'eu-fsf-xml'
  | 'uk-ofsi-csv'
  | 'uk-sanctions-list-csv'
  | 'us-csl-csv'
  | 'us-bis-dpl-tsv'
  | 'ftm-jsonl';

export type FileRole = 'main' | 'addresses' | 'aliases' | 'comments';

export type SourceFile = { path: string; format: FileFormat };

export type SourceGroup = {
  listId: ListId;
  format: SourceFormat;
  /** The files of the source; for OFAC CSV the main file first, then its companions. */
  files: { path: string; role: FileRole }[];
};

/** How many leading bytes detectFormat needs to see. */
export const DETECT_HEAD_BYTES = 8192;

export function baseName(path: string): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return cut < 0 ? path : path.slice(cut + 1);
}

export function dirName(path: string): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return cut < 0 ? '' : path.slice(0, cut);
}

function xmlRoot(text: string): string | undefined {
  // Skip the XML declaration, comments, processing instructions and DOCTYPE.
  const body = text.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<![A-Z][^>]*>/g, '');
  const m = /<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[\s>/]/.exec(body);
  return m?.[2];
}

const isInt = (v: string | undefined): boolean => /^\s*\d+\s*$/.test(v ?? '');

// OFAC's own file names, used when a file has no record to look at (an empty comments file
// holds only the 0x1A end-of-file byte).
const OFAC_CSV_NAMES: Readonly<Record<string, FileFormat>> = {
  'sdn.csv': 'ofac-csv-main',
  'cons_prim.csv': 'ofac-csv-main',
  'add.csv': 'ofac-csv-addresses',
  'cons_add.csv': 'ofac-csv-addresses',
  'alt.csv': 'ofac-csv-aliases',
  'cons_alt.csv': 'ofac-csv-aliases',
  'sdn_comments.csv': 'ofac-csv-comments',
  'cons_comments.csv': 'ofac-csv-comments',
};

function detectOfacCsv(name: string, text: string): FileFormat | null {
  const records = parseCsvHead(text);
  if (records.length === 0 && !text.split(EOF_MARK).join('').trim()) return OFAC_CSV_NAMES[name.toLowerCase()] ?? null;
  const first = records[0];
  if (!first || !isInt(first[0])) return null;
  const cells = first.map((c) => c.trim());
  const lowerName = name.toLowerCase();
  if (cells.length === 12 && /^(individual|vessel|aircraft|-0-)$/i.test(cells[2] ?? '')) return 'ofac-csv-main';
  if (cells.length === 6 && isInt(cells[1])) return 'ofac-csv-addresses';
  if (cells.length === 5 && isInt(cells[1]) && /^(weak )?(aka|fka|nka)$/i.test(cells[2] ?? ''))
    return 'ofac-csv-aliases';
  // Two columns: ent_num and a remarks continuation (long text), or a file named as such.
  if (cells.length === 2 && (lowerName.includes('comment') || (cells[1] ?? '').length >= 20))
    return 'ofac-csv-comments';
  return null;
}

/**
 * The format of a file from its name and its first bytes (decoded leniently as UTF-8; see
 * DETECT_HEAD_BYTES), or null when it is not a list this library reads.
 */
export function detectFormat(fileName: string, head: string): FileFormat | null {
  const name = baseName(fileName);
  const text = head.replace(/^\uFEFF/, '');
  const start = text.trimStart();
  if (!start) return OFAC_CSV_NAMES[name.toLowerCase()] ?? null;

  if (start.startsWith('<')) {
    const root = xmlRoot(start);
    if (root === 'sdnList') return 'ofac-xml';
    if (root === 'Sanctions' && /ReferenceValueSets|DistinctParties|ADVANCED_XML|un\.org\/sanctions/.test(start))
      return 'ofac-advanced-xml';
    if (root === 'CONSOLIDATED_LIST') return 'un-xml';
    if (root === 'export' && /sanctionEntity|fpi\/fsd\/export/.test(start)) return 'eu-fsf-xml';
    return null;
  }
  if (start.startsWith('{')) {
    return /"schema"\s*:/.test(start) && /"properties"\s*:/.test(start) && /"id"\s*:/.test(start) ? 'ftm-jsonl' : null;
  }

  const lines = text.split(/\r?\n/, 3);
  const line1 = lines[0] ?? '';
  const line2 = lines[1] ?? '';
  if (line1.includes('\t') && /^"?Name"?\t"?Street_Address"?\t/i.test(line1)) return 'us-bis-dpl-tsv';
  if (/^"?_id"?,"?source"?,"?entity_number"?,/.test(line1)) return 'us-csl-csv';
  if (/Entity_LogicalId/i.test(line1) && line1.includes(';')) return 'eu-fsf-csv';
  const ukHeader = /^Last Updated,/.test(line1) && !/Name 6/.test(line1) ? line2 : line1;
  if (/Name 6/.test(ukHeader) && /Group ID/.test(ukHeader) && !/Unique ID/.test(ukHeader)) return 'uk-ofsi-csv';
  const uklHeader = /^Report Date:/i.test(line1) ? line2 : line1;
  if (/Name 6/.test(uklHeader) && /Unique ID/.test(uklHeader)) return 'uk-sanctions-list-csv';
  return detectOfacCsv(name, text);
}

const SOURCE_FORMAT: Readonly<Record<Exclude<FileFormat, `ofac-csv-${string}`>, SourceFormat>> = {
  'ofac-xml': 'ofac-xml',
  'ofac-advanced-xml': 'ofac-advanced-xml',
  'un-xml': 'un-xml',
  'eu-fsf-csv': 'eu-fsf-csv',
  'eu-fsf-xml': 'eu-fsf-xml',
  'uk-ofsi-csv': 'uk-ofsi-csv',
  'uk-sanctions-list-csv': 'uk-sanctions-list-csv',
  'us-csl-csv': 'us-csl-csv',
  'us-bis-dpl-tsv': 'us-bis-dpl-tsv',
  'ftm-jsonl': 'ftm-jsonl',
};

const FIXED_LIST: Readonly<Partial<Record<SourceFormat, ListId>>> = {
  'un-xml': 'un-sc',
  'eu-fsf-csv': 'eu-fsf',
  'eu-fsf-xml': 'eu-fsf',
  'uk-ofsi-csv': 'uk-hmt',
  'uk-sanctions-list-csv': 'uk-hmt',
  'us-csl-csv': 'us-csl',
  'us-bis-dpl-tsv': 'us-bis-dpl',
  'ftm-jsonl': 'opensanctions',
};

/** OFAC's SDN and consolidated (non-SDN) files share layouts; only their names tell them apart. */
function isOfacConsolidated(path: string): boolean {
  return /^cons/i.test(baseName(path));
}

const ROLE: Readonly<Record<`ofac-csv-${string}`, FileRole>> = {
  'ofac-csv-main': 'main',
  'ofac-csv-addresses': 'addresses',
  'ofac-csv-aliases': 'aliases',
  'ofac-csv-comments': 'comments',
};

const ROLE_ORDER: readonly FileRole[] = ['main', 'addresses', 'aliases', 'comments'];

/**
 * Group recognised files into sources: each file is its own source except OFAC's CSV set,
 * whose main file is joined with the address, alias and comments files of the same folder
 * and the same family (sdn.csv/add.csv/alt.csv/sdn_comments.csv, or cons_*). Companions
 * with no main file are returned as `unused`. Sources are sorted by their first file's path.
 */
export function groupSources(files: readonly SourceFile[]): { sources: SourceGroup[]; unused: SourceFile[] } {
  const sources: SourceGroup[] = [];
  const unused: SourceFile[] = [];
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const mains = new Map<string, SourceGroup>();
  const mainsByDir = new Map<string, SourceGroup[]>();
  const family = (path: string): string => `${dirName(path)}\u0000${isOfacConsolidated(path) ? 'cons' : 'sdn'}`;

  for (const file of sorted) {
    if (file.format === 'ofac-csv-main') {
      const group: SourceGroup = {
        listId: isOfacConsolidated(file.path) ? 'ofac-cons' : 'ofac-sdn',
        format: 'ofac-csv',
        files: [{ path: file.path, role: 'main' }],
      };
      mains.set(family(file.path), group);
      const dir = dirName(file.path);
      mainsByDir.set(dir, [...(mainsByDir.get(dir) ?? []), group]);
      sources.push(group);
    } else if (!file.format.startsWith('ofac-csv-')) {
      const format = SOURCE_FORMAT[file.format as keyof typeof SOURCE_FORMAT];
      const listId = FIXED_LIST[format] ?? (isOfacConsolidated(file.path) ? 'ofac-cons' : 'ofac-sdn');
      sources.push({ listId, format, files: [{ path: file.path, role: 'main' }] });
    }
  }
  for (const file of sorted) {
    if (!file.format.startsWith('ofac-csv-') || file.format === 'ofac-csv-main') continue;
    const role = ROLE[file.format as keyof typeof ROLE] ?? 'comments';
    const inDir = mainsByDir.get(dirName(file.path)) ?? [];
    // A renamed companion joins the folder's only main file.
    const group = mains.get(family(file.path)) ?? (inDir.length === 1 ? inDir[0] : undefined);
    if (!group || group.files.some((f) => f.role === role)) {
      unused.push(file);
      continue;
    }
    group.files.push({ path: file.path, role });
  }
  for (const group of sources) group.files.sort((a, b) => ROLE_ORDER.indexOf(a.role) - ROLE_ORDER.indexOf(b.role));
  return { sources, unused };
}
