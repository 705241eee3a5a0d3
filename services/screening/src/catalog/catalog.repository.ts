import { Injectable } from '@nestjs/common';
import type { Entity } from '@vigil/lists';
import type { Feed } from '@vigil/proto';
import { Database } from '@vigil/platform';

export type StoredEntity = {
  source: string;
  sourceId: string;
  sourceName: string;
  feed: Feed;
  dataset: string;
  entity: Entity;
  addedVersionId: number;
  changedVersionId: number | null;
  listVersionId: number;
};

type Row = {
  source: string;
  source_id: string;
  source_name: string;
  feed: Feed;
  dataset: string;
  data: string;
  added_version_id: string;
  changed_version_id: string | null;
  current_version_id: string;
};

const SELECT = `
  SELECT e.source, e.source_id, s.name AS source_name, s.feed, s.dataset, e.data::text AS data,
         e.added_version_id, e.changed_version_id, s.current_version_id
    FROM entities e JOIN sources s ON s.source = e.source
   WHERE s.enabled AND e.removed_version_id IS NULL AND s.current_version_id IS NOT NULL`;

const toStored = (r: Row): StoredEntity => ({
  source: r.source,
  sourceId: r.source_id,
  sourceName: r.source_name,
  feed: r.feed,
  dataset: r.dataset,
  entity: JSON.parse(r.data) as Entity,
  addedVersionId: Number(r.added_version_id),
  changedVersionId: r.changed_version_id === null ? null : Number(r.changed_version_id),
  listVersionId: Number(r.current_version_id),
});

/** Reads live entities of served sources for details, downloads and text search. */
@Injectable()
export class CatalogRepository {
  constructor(private readonly db: Database) {}

  async entity(source: string, sourceId: string, feeds: readonly Feed[]): Promise<StoredEntity | null> {
    const rows: Row[] = await this.db.query(`${SELECT} AND e.source = $1 AND e.source_id = $2 AND s.feed = ANY($3::text[])`, [source, sourceId, feeds]);
    return rows[0] ? toStored(rows[0]) : null;
  }

  /** A page of a source's live entities in source-id order, after `afterSourceId`. */
  async page(source: string, afterSourceId: string | null, limit: number): Promise<StoredEntity[]> {
    const rows: Row[] = await this.db.query(`${SELECT} AND e.source = $1 AND ($2::text IS NULL OR e.source_id > $2) ORDER BY e.source_id LIMIT $3`, [
      source,
      afterSourceId,
      limit,
    ]);
    return rows.map(toStored);
  }

  /** Entities whose names or source id contain `text` (case-insensitive), in the given feeds. */
  async containing(text: string, feeds: readonly Feed[], limit: number): Promise<StoredEntity[]> {
    const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows: Row[] = await this.db.query(`${SELECT} AND s.feed = ANY($1::text[]) AND e.search_text LIKE $2 ORDER BY e.primary_name, e.source, e.source_id LIMIT $3`, [
      feeds,
      pattern,
      limit,
    ]);
    return rows.map(toStored);
  }
}
