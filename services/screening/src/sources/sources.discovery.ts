import { DETECT_HEAD_BYTES, decodeHead, detectFormat, groupSources, type SourceFile as ListFile } from '@vigil/lists';
import type { Feed } from '@vigil/proto';
import { open, readdir } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { ScreeningConfig } from '../env.js';
import { KNOWN_LISTS, feedFromName, officialOpenSanctionsUrl, openSanctionsDefinition, slug } from './sources.catalog.js';
import type { SourceDefinition, SourceFile } from './source.js';

// Turns configuration into source definitions: the official catalogue, or whatever list
// files a folder holds (recognised by content, grouped the way @vigil/lists groups them).

export type Discovery = { definitions: SourceDefinition[]; skipped: string[] };

async function walk(dir: string, out: string[] = []): Promise<string[]> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await walk(path, out);
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

async function readHead(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = new Uint8Array(DETECT_HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, DETECT_HEAD_BYTES, 0);
    return decodeHead(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

const refreshMinutes = (config: ScreeningConfig, source: string) =>
  Number(config.LISTS_REFRESH_OVERRIDES[source] ?? config.LISTS_REFRESH_MINUTES);

/** Every recognised list under `dir`, one definition per source, in path order. */
export async function discoverDir(config: ScreeningConfig, dir = config.LISTS_DIR): Promise<Discovery> {
  const paths = (await walk(dir)).map((p) => relative(dir, p).split(sep).join('/')).sort();
  const recognised: ListFile[] = [];
  const skipped: string[] = [];
  for (const path of paths) {
    const format = detectFormat(path, await readHead(join(dir, path)));
    if (format) recognised.push({ path, format });
    else skipped.push(path);
  }
  const { sources, unused } = groupSources(recognised);
  skipped.push(...unused.map((f) => f.path));

  const definitions: SourceDefinition[] = [];
  const taken = new Set<string>();
  for (const group of sources) {
    const mainPath = group.files[0]!.path;
    const folder = dirname(mainPath) === '.' ? '' : basename(dirname(mainPath));
    const files: SourceFile[] = group.files.map((f) => ({ name: basename(f.path), location: join(dir, f.path) }));
    if (group.listId === 'opensanctions') {
      // entities.ftm.json is OpenSanctions' own file name: the folder names the dataset then.
      const base = basename(mainPath);
      const datasetName = slug(/^entities\./.test(base) && folder ? folder : base);
      let key = `os-${datasetName}`;
      for (let n = 2; taken.has(key); n++) key = `os-${datasetName}-${n}`;
      taken.add(key);
      const feed = (config.LIST_FEEDS[key] as Feed | undefined) ?? feedFromName(datasetName);
      definitions.push(openSanctionsDefinition(key, datasetName.replace(/-/g, '_'), feed, files, refreshMinutes(config, key)));
      continue;
    }
    const known = KNOWN_LISTS[group.listId];
    let key: string = group.listId;
    if (taken.has(key)) key = `${group.listId}-${slug(folder || mainPath)}`;
    for (let n = 2; taken.has(key); n++) key = `${group.listId}-${n}`;
    taken.add(key);
    definitions.push({
      source: key,
      listId: known.listId,
      name: known.name,
      publisher: known.publisher,
      description: known.description,
      feed: (config.LIST_FEEDS[key] as Feed | undefined) ?? known.feed,
      dataset: known.dataset,
      format: group.format,
      files,
      refreshMinutes: refreshMinutes(config, key),
    });
  }
  return { definitions, skipped: skipped.sort() };
}

/** The official catalogue: every known list from its publisher, plus the configured OpenSanctions datasets. */
export function officialDefinitions(config: ScreeningConfig): SourceDefinition[] {
  const locate = (source: string, files: SourceFile[]): SourceFile[] => {
    const override = config.LIST_LOCATIONS[source];
    if (!override) return files;
    // One file: the override is that file. Several (OFAC CSV sets): the folder or URL prefix holding them.
    if (files.length === 1) return [{ name: files[0]!.name, location: override }];
    return files.map((f) => ({ name: f.name, location: `${override.replace(/\/+$/, '')}/${f.name}` }));
  };
  const definitions: SourceDefinition[] = Object.entries(KNOWN_LISTS).map(([source, known]) => ({
    source,
    listId: known.listId,
    name: known.name,
    publisher: known.publisher,
    description: known.description,
    feed: known.feed,
    dataset: known.dataset,
    format: known.format,
    files: locate(source, known.official),
    refreshMinutes: refreshMinutes(config, source),
  }));
  for (const [feed, dataset] of Object.entries(config.OPENSANCTIONS_DATASETS)) {
    const key = `os-${slug(dataset)}`;
    const files = locate(key, [{ name: `${slug(dataset)}.ftm.json`, location: officialOpenSanctionsUrl(dataset) }]);
    definitions.push(openSanctionsDefinition(key, dataset, feed as Feed, files, refreshMinutes(config, key)));
  }
  return definitions;
}

/** The sources the configuration asks for right now. */
export async function resolveDefinitions(config: ScreeningConfig): Promise<Discovery> {
  if (config.LISTS_SOURCE === 'official') return { definitions: officialDefinitions(config), skipped: [] };
  return discoverDir(config);
}
