import type { Feed } from '@vigil/proto';
import type { ListId, SourceFormat } from '@vigil/lists';

/** One file of a source: a URL to download or a local path, and the name it is parsed under. */
export type SourceFile = {
  /** The file name the parsers see (OFAC companions are told apart by name). */
  name: string;
  location: string;
};

/**
 * A list source as configured: where its files come from, which feed it serves and how
 * often it is refreshed. Its key prefixes every entity id (`ofac-sdn:12345`).
 */
export type SourceDefinition = {
  source: string;
  listId: ListId;
  name: string;
  publisher: string;
  description: string;
  feed: Feed;
  /** Identifier shown as a result's source dataset (ofac_sdn, un_sanctions, peps…). */
  dataset: string;
  /** The format the files must be in; a file in another format is a failed refresh. */
  format: SourceFormat;
  files: SourceFile[];
  refreshMinutes: number;
};

/** Where a source's files come from, in one line for the Lists page. */
export function describeLocation(files: readonly SourceFile[]): string {
  const first = files[0]?.location ?? '';
  return files.length > 1 ? `${first} (+${files.length - 1} companion files)` : first;
}
