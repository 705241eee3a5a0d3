import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import {
  DETECT_HEAD_BYTES,
  decodeHead,
  detectFormat,
  groupSources,
  parseSource,
  type Entity,
  type ListId,
  type SourceFile,
  type SourceFormat,
} from '../index.js';

// Node-only: find every list file under a directory, parse them all, and say what was loaded.

export type LoadedSource = {
  listId: ListId;
  format: SourceFormat;
  /** Paths relative to the loaded directory, '/'-separated; for OFAC CSV the main file first. */
  files: string[];
  entityCount: number;
  /**
   * SHA-256 (hex) of the source's bytes: the file's own digest for one file; for several, the
   * digest of their `sha256sum`-style lines ("<hex>  <relative path>\n", in `files` order).
   */
  sha256: string;
};

export type LoadResult = {
  sources: LoadedSource[];
  /** All entities, sources in path order, each source's entities in its own order. */
  entities: Entity[];
  /** Files that are not a recognised list (README, …) or a companion without its main file. */
  skipped: string[];
};

async function walk(dir: string, out: string[] = []): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await walk(path, out);
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

async function readHead(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const buffer = new Uint8Array(DETECT_HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, DETECT_HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const toPosix = (path: string): string => path.split(sep).join('/');

/** Load every recognised list file under `dir` (recursively), in a deterministic order. */
export async function loadListsFromDir(dir: string): Promise<LoadResult> {
  const paths = (await walk(dir)).map((p) => toPosix(relative(dir, p))).sort();
  const recognised: SourceFile[] = [];
  const skipped: string[] = [];
  for (const path of paths) {
    const format = detectFormat(path, decodeHead(await readHead(join(dir, path))));
    if (format) recognised.push({ path, format });
    else skipped.push(path);
  }
  const { sources: groups, unused } = groupSources(recognised);
  skipped.push(...unused.map((f) => f.path));
  skipped.sort();

  const openFile = (path: string): AsyncIterable<Uint8Array> =>
    createReadStream(join(dir, path), { highWaterMark: 1 << 20 });
  const sources: LoadedSource[] = [];
  const entities: Entity[] = [];
  for (const group of groups) {
    let entityCount = 0;
    for await (const entity of parseSource(group, openFile)) {
      entities.push(entity);
      entityCount++;
    }
    const files = group.files.map((f) => f.path);
    const digests = await Promise.all(files.map((f) => sha256File(join(dir, f))));
    const sha256 =
      files.length === 1
        ? (digests[0] ?? '')
        : createHash('sha256')
            .update(files.map((f, i) => `${digests[i]}  ${f}\n`).join(''))
            .digest('hex');
    sources.push({ listId: group.listId, format: group.format, files, entityCount, sha256 });
  }
  return { sources, entities, skipped };
}
