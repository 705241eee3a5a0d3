import { Injectable } from '@nestjs/common';
import { DomainError } from '@vigil/platform';
import type {
  DatasetsResponse,
  EntityDetails,
  EntityRequest,
  ListsResponse,
  ParsedDatasetsRequest,
  ParsedSearchRequest,
  SearchHit,
  SearchResponse,
} from '@vigil/proto';
import { entityId } from '../index/candidate-index.js';
import { IndexService } from '../index/index.service.js';
import { SourcesRepository } from '../sources/sources.repository.js';
import { CatalogRepository } from './catalog.repository.js';
import { CSV_COLUMNS, toCsvRow, toEntityDetails, toListInfo } from './catalog.mapping.js';

const encodeCursor = (sourceId: string) => Buffer.from(sourceId, 'utf8').toString('base64url');
const decodeCursor = (cursor: string) => Buffer.from(cursor, 'base64url').toString('utf8');

function splitId(id: string): { source: string; sourceId: string } | null {
  const cut = id.indexOf(':');
  if (cut <= 0 || cut === id.length - 1) return null;
  return { source: id.slice(0, cut), sourceId: id.slice(cut + 1) };
}

/** Entity details, the list catalogue, dataset downloads and the dashboard's free-text lookup. */
@Injectable()
export class CatalogService {
  constructor(
    private readonly catalog: CatalogRepository,
    private readonly sources: SourcesRepository,
    private readonly index: IndexService,
  ) {}

  async entity(request: EntityRequest): Promise<EntityDetails> {
    const id = splitId(request.id);
    // Outside the caller's feeds an entity does not exist for them.
    const found = id ? await this.catalog.entity(id.source, id.sourceId, request.feeds) : null;
    if (!found) throw new DomainError('NOT_FOUND', `No entity ${request.id} in your lists.`);
    return toEntityDetails(found);
  }

  async lists(): Promise<ListsResponse> {
    return { lists: (await this.sources.all()).map(toListInfo) };
  }

  async dataset(request: ParsedDatasetsRequest): Promise<DatasetsResponse> {
    const source = await this.sources.get(request.source);
    if (!source || !source.enabled || !source.version || !request.feeds.includes(source.feed)) {
      throw new DomainError('NOT_FOUND', `No dataset ${request.source} in your lists.`);
    }
    const after = request.cursor ? decodeCursor(request.cursor) : null;
    const page = await this.catalog.page(source.source, after, request.limit + 1);
    const entities = page.slice(0, request.limit).map(toEntityDetails);
    const nextCursor = page.length > request.limit ? encodeCursor(entities[entities.length - 1]!.sourceId) : null;
    const base = { source: source.source, format: request.format, version: source.version.id, totalEntities: source.version.entityCount, nextCursor };
    if (request.format === 'json') return { ...base, entities };
    const header = after === null ? CSV_COLUMNS.join(',') + '\r\n' : '';
    return { ...base, csv: header + entities.map(toCsvRow).join('') };
  }

  async search(request: ParsedSearchRequest): Promise<SearchResponse> {
    const hits = new Map<string, SearchHit>();
    const id = splitId(request.query);
    if (id) {
      const found = await this.catalog.entity(id.source, id.sourceId, request.feeds);
      if (found) hits.set(request.query, this.hit(toEntityDetails(found), found.entity.names[0]?.full ?? '', 1, 'id'));
    }
    try {
      const scope = this.index.scopeFor(request.feeds);
      for (const m of await this.index.screen({ name: request.query }, scope, request.limit)) {
        const key = entityId(m.source, m.entity.sourceId);
        const partition = scope.versions.find((v) => v.source === m.source);
        if (!hits.has(key)) {
          hits.set(key, {
            id: key,
            name: m.entity.names[0]?.full ?? m.matchedName,
            matchedName: m.matchedName,
            entityType: m.entity.type,
            source: m.source,
            sourceId: m.entity.sourceId,
            sourceDataset: partition?.dataset ?? m.source,
            feed: partition?.feed ?? 'sanctions',
            programs: m.entity.programs,
            score: m.score,
            matchedBy: 'name',
          });
        }
      }
    } catch (error) {
      // A lookup still answers from Postgres while the index loads.
      if (!(error instanceof DomainError && error.code === 'INDEX_UNAVAILABLE')) throw error;
    }
    for (const found of await this.catalog.containing(request.query, request.feeds, request.limit)) {
      const details = toEntityDetails(found);
      if (hits.has(details.id)) continue;
      const q = request.query.toLowerCase();
      const matched = details.names.find((n) => n.full.toLowerCase().includes(q))?.full ?? details.name;
      hits.set(details.id, this.hit(details, matched, matched.toLowerCase() === q ? 1 : 0, 'text'));
    }
    const order = { id: 0, name: 1, text: 2 } as const;
    const sorted = [...hits.values()].sort((a, b) => order[a.matchedBy] - order[b.matchedBy] || b.score - a.score || a.id.localeCompare(b.id));
    return { query: request.query, hits: sorted.slice(0, request.limit) };
  }

  private hit(d: EntityDetails, matchedName: string, score: number, matchedBy: SearchHit['matchedBy']): SearchHit {
    return {
      id: d.id,
      name: d.name,
      matchedName,
      entityType: d.entityType,
      source: d.source,
      sourceId: d.sourceId,
      sourceDataset: d.sourceDataset,
      feed: d.feed,
      programs: d.programs,
      score,
      matchedBy,
    };
  }
}
