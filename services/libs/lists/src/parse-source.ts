import type { Entity } from './entity.js';
import type { SourceGroup } from './formats.js';
import { parseCslCsv } from './csl/csl-csv.parser.js';
import { parseDplTsv } from './dpl/dpl.parser.js';
import { parseEuCsv } from './eu/eu-csv.parser.js';
import { parseEuXml } from './eu/eu-xml.parser.js';
import { parseFtmJsonLines } from './ftm/ftm.parser.js';
import { parseOfacAdvancedXml } from './ofac/ofac-advanced.parser.js';
import { parseOfacCsv } from './ofac/ofac-csv.parser.js';
import { parseOfacXml } from './ofac/ofac-xml.parser.js';
import type { ByteStream } from './text/decode.js';
import { parseUkCsv } from './uk/uk-csv.parser.js';
import { parseUnXml } from './un/un-xml.parser.js';

/** Opens a file of a source as a byte stream; the caller decides how (fs, fetch, memory). */
export type OpenFile = (path: string) => ByteStream;

/** Parse one source (as grouped by groupSources) into its entities, in source order. */
export async function* parseSource(source: SourceGroup, open: OpenFile): AsyncGenerator<Entity> {
  const path = (role: SourceGroup['files'][number]['role']): string | undefined =>
    source.files.find((f) => f.role === role)?.path;
  const main = path('main');
  if (!main) return;
  switch (source.format) {
    case 'ofac-csv': {
      const addresses = path('addresses');
      const aliases = path('aliases');
      const comments = path('comments');
      yield* await parseOfacCsv(
        {
          main: open(main),
          ...(addresses ? { addresses: open(addresses) } : {}),
          ...(aliases ? { aliases: open(aliases) } : {}),
          ...(comments ? { comments: open(comments) } : {}),
        },
        source.listId,
      );
      return;
    }
    case 'ofac-xml':
      yield* parseOfacXml(open(main), source.listId);
      return;
    case 'ofac-advanced-xml':
      yield* await parseOfacAdvancedXml(open(main), source.listId);
      return;
    case 'un-xml':
      yield* parseUnXml(open(main));
      return;
    case 'eu-fsf-csv':
      yield* await parseEuCsv(open(main));
      return;
    case 'eu-fsf-xml':
      yield* parseEuXml(open(main));
      return;
    case 'uk-ofsi-csv':
      yield* await parseUkCsv(open(main), 'ofsi');
      return;
    case 'uk-sanctions-list-csv':
      yield* await parseUkCsv(open(main), 'uk-sanctions-list');
      return;
    case 'us-csl-csv':
      yield* await parseCslCsv(open(main));
      return;
    case 'us-bis-dpl-tsv':
      yield* await parseDplTsv(open(main));
      return;
    case 'ftm-jsonl':
      yield* await parseFtmJsonLines(open(main));
      return;
  }
}
