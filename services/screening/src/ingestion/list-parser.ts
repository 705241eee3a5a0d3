import { DETECT_HEAD_BYTES, decodeHead, detectFormat, groupSources, parseSource, type Entity, type SourceFile as ListFile } from '@vigil/lists';
import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { SourceDefinition } from '../sources/source.js';
import { IngestionError } from './ingestion.errors.js';
import type { FetchedSource } from './list-fetcher.js';

export type ParsedList = {
  entities: Entity[];
  /** Records that repeated an earlier record's source id (the first one is kept). */
  duplicates: number;
};

let cachedParserVersion: string | undefined;

/** `@vigil/lists@<version>`: recorded with each list version so a re-parse can be traced. */
export async function parserVersion(): Promise<string> {
  if (cachedParserVersion) return cachedParserVersion;
  const entry = createRequire(import.meta.url).resolve('@vigil/lists');
  let dir = dirname(entry);
  for (let i = 0; i < 4; i++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@vigil/lists') return (cachedParserVersion = `@vigil/lists@${pkg.version}`);
    } catch {
      // not this folder
    }
  }
  return (cachedParserVersion = '@vigil/lists@unknown');
}

async function head(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = new Uint8Array(DETECT_HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, DETECT_HEAD_BYTES, 0);
    return decodeHead(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/**
 * Parses a fetched source with @vigil/lists after checking that its files are what the
 * source says they are: a file in another format, a missing main file or a parser error
 * fails the refresh instead of replacing a list with something else.
 */
export async function parseFetched(definition: SourceDefinition, fetched: FetchedSource): Promise<ParsedList> {
  const byName = new Map(fetched.files.map((f) => [f.name, f.path]));
  const recognised: ListFile[] = [];
  for (const file of fetched.files) {
    const format = detectFormat(file.name, await head(file.path));
    if (!format) throw new IngestionError('validate', `${file.name} is not a ${definition.format} list file (unrecognised content)`);
    recognised.push({ path: file.name, format });
  }
  const { sources, unused } = groupSources(recognised);
  if (unused.length > 0) throw new IngestionError('validate', `${unused.map((f) => f.path).join(', ')} could not be joined to a main ${definition.format} file`);
  if (sources.length !== 1) throw new IngestionError('validate', `expected one ${definition.format} source, found ${sources.length}`);
  const group = sources[0]!;
  if (group.format !== definition.format) throw new IngestionError('validate', `expected ${definition.format}, found ${group.format}`);

  const entities: Entity[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  try {
    for await (const entity of parseSource(group, (name) => createReadStream(byName.get(name)!, { highWaterMark: 1 << 20 }))) {
      if (seen.has(entity.sourceId)) {
        duplicates++;
        continue;
      }
      seen.add(entity.sourceId);
      entities.push(entity);
    }
  } catch (error) {
    throw new IngestionError('parse', `${definition.format} parser: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (entities.length === 0) throw new IngestionError('validate', 'the files hold no entities');
  return { entities, duplicates };
}
