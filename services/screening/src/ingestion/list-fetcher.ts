import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SourceDefinition } from '../sources/source.js';
import { IngestionError } from './ingestion.errors.js';

export type FetchedFile = { name: string; path: string; sha256: string; bytes: number };

export type FetchedSource = {
  files: FetchedFile[];
  /** One file: its own digest. Several: the digest of their `sha256sum` lines (in order), as @vigil/lists computes it. */
  sha256: string;
  totalBytes: number;
};

const isUrl = (location: string) => /^https?:\/\//i.test(location);

function hashingStream(hash: ReturnType<typeof createHash>, counter: { bytes: number }) {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      counter.bytes += chunk.length;
      callback(null, chunk);
    },
  });
}

/** Combined digest of several files, the `sha256sum` way. */
export function combinedSha256(files: readonly Pick<FetchedFile, 'name' | 'sha256'>[]): string {
  if (files.length === 1) return files[0]!.sha256;
  return createHash('sha256')
    .update(files.map((f) => `${f.sha256}  ${f.name}\n`).join(''))
    .digest('hex');
}

/**
 * Brings a source's files to local disk (downloads go to the cache folder; local files are
 * read in place) and hashes them, so an unchanged list is recognised before parsing.
 */
export class ListFetcher {
  constructor(
    private readonly cacheDir: string,
    private readonly timeoutMs: number,
  ) {}

  async fetch(definition: SourceDefinition): Promise<FetchedSource> {
    const files: FetchedFile[] = [];
    for (const file of definition.files) {
      try {
        files.push(isUrl(file.location) ? await this.download(definition.source, file.name, file.location) : await this.local(file.name, file.location));
      } catch (error) {
        throw new IngestionError('fetch', `${file.name} from ${file.location}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return { files, sha256: combinedSha256(files), totalBytes: files.reduce((n, f) => n + f.bytes, 0) };
  }

  private async local(name: string, path: string): Promise<FetchedFile> {
    const info = await stat(path);
    if (!info.isFile()) throw new Error('not a file');
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
      hash.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
    return { name, path, sha256: hash.digest('hex'), bytes };
  }

  private async download(source: string, name: string, url: string): Promise<FetchedFile> {
    const dir = join(this.cacheDir, source);
    await mkdir(dir, { recursive: true });
    const path = join(dir, name);
    const partial = `${path}.part`;
    const response = await fetch(url, { signal: AbortSignal.timeout(this.timeoutMs), redirect: 'follow' });
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
    const hash = createHash('sha256');
    const counter = { bytes: 0 };
    try {
      await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), hashingStream(hash, counter), createWriteStream(partial));
      await rename(partial, path);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return { name, path, sha256: hash.digest('hex'), bytes: counter.bytes };
  }
}
