import { Injectable } from '@nestjs/common';
import type { Feed } from '@vigil/proto';
import { Database } from '@vigil/platform';
import { describeLocation, type SourceDefinition, type SourceFile } from './source.js';

/** A source row with its current version, as the Lists page and the index need it. */
export type SourceState = {
  source: string;
  name: string;
  publisher: string;
  description: string;
  feed: Feed;
  dataset: string;
  listId: string;
  location: string;
  format: string;
  files: SourceFile[];
  refreshMinutes: number;
  enabled: boolean;
  updating: boolean;
  lastCheckedAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  version: null | {
    id: number;
    fetchedAt: Date;
    sha256: string;
    entityCount: number;
    fileSize: number;
  };
};

type Row = {
  source: string;
  name: string;
  publisher: string;
  description: string;
  feed: Feed;
  dataset: string;
  list_id: string;
  location: string;
  format: string;
  files: SourceFile[];
  refresh_minutes: number;
  enabled: boolean;
  updating: boolean;
  last_checked_at: Date | null;
  last_error: string | null;
  last_error_at: Date | null;
  version_id: string | null;
  fetched_at: Date | null;
  sha256: string | null;
  entity_count: number | null;
  file_size: string | null;
};

const SELECT = `
  SELECT s.source, s.name, s.publisher, s.description, s.feed, s.dataset, s.list_id, s.location, s.format, s.files,
         s.refresh_minutes, s.enabled, (s.lease_until IS NOT NULL AND s.lease_until > now()) AS updating,
         s.last_checked_at, s.last_error, s.last_error_at,
         v.id AS version_id, v.fetched_at, v.sha256, v.entity_count, v.file_size
    FROM sources s LEFT JOIN list_versions v ON v.id = s.current_version_id`;

function toState(row: Row): SourceState {
  return {
    source: row.source,
    name: row.name,
    publisher: row.publisher,
    description: row.description,
    feed: row.feed,
    dataset: row.dataset,
    listId: row.list_id,
    location: row.location,
    format: row.format,
    files: row.files,
    refreshMinutes: row.refresh_minutes,
    enabled: row.enabled,
    updating: row.updating,
    lastCheckedAt: row.last_checked_at,
    lastError: row.last_error,
    lastErrorAt: row.last_error_at,
    version:
      row.version_id === null
        ? null
        : { id: Number(row.version_id), fetchedAt: row.fetched_at!, sha256: row.sha256!, entityCount: row.entity_count!, fileSize: Number(row.file_size) },
  };
}

@Injectable()
export class SourcesRepository {
  constructor(private readonly db: Database) {}

  /** Records the configured sources (enabled) and disables every other one. */
  async sync(definitions: readonly SourceDefinition[], keepEnabled: readonly string[] = []): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const d of definitions) {
        await tx.query(
          `INSERT INTO sources (source, name, publisher, description, feed, dataset, list_id, location, format, files, refresh_minutes, enabled)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, true)
           ON CONFLICT (source) DO UPDATE SET
             name = EXCLUDED.name, publisher = EXCLUDED.publisher, description = EXCLUDED.description, feed = EXCLUDED.feed,
             dataset = EXCLUDED.dataset, list_id = EXCLUDED.list_id, location = EXCLUDED.location, format = EXCLUDED.format,
             files = EXCLUDED.files, refresh_minutes = EXCLUDED.refresh_minutes, enabled = true, updated_at = now()
           WHERE (sources.name, sources.publisher, sources.description, sources.feed, sources.dataset, sources.list_id, sources.location,
                  sources.format, sources.files, sources.refresh_minutes, sources.enabled)
             IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.publisher, EXCLUDED.description, EXCLUDED.feed, EXCLUDED.dataset, EXCLUDED.list_id,
                  EXCLUDED.location, EXCLUDED.format, EXCLUDED.files, EXCLUDED.refresh_minutes, true)`,
          [d.source, d.name, d.publisher, d.description, d.feed, d.dataset, d.listId, describeLocation(d.files), d.format, JSON.stringify(d.files), d.refreshMinutes],
        );
      }
      const keep = [...definitions.map((d) => d.source), ...keepEnabled];
      await tx.query('UPDATE sources SET enabled = false, updated_at = now() WHERE enabled AND NOT (source = ANY($1::text[]))', [keep]);
    });
  }

  async all(): Promise<SourceState[]> {
    const rows: Row[] = await this.db.query(`${SELECT} ORDER BY s.source`);
    return rows.map(toState);
  }

  async get(source: string): Promise<SourceState | null> {
    const rows: Row[] = await this.db.query(`${SELECT} WHERE s.source = $1`, [source]);
    return rows[0] ? toState(rows[0]) : null;
  }
}
