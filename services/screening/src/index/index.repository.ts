import { Injectable } from '@nestjs/common';
import type { Entity } from '@vigil/lists';
import type { Feed } from '@vigil/proto';
import { Database } from '@vigil/platform';
import type { PartitionInfo } from './candidate-index.js';

export type IndexableSource = {
  source: string;
  feed: Feed;
  dataset: string;
  /** null until the first good version. */
  version: PartitionInfo | null;
  /** false until the first refresh attempt finished (good or bad). */
  checked: boolean;
};

/** Reads what the index is built from: enabled sources, their current versions and live entities. */
@Injectable()
export class IndexRepository {
  constructor(private readonly db: Database) {}

  async enabledSources(): Promise<IndexableSource[]> {
    const rows: Array<{
      source: string;
      feed: Feed;
      dataset: string;
      checked: boolean;
      version_id: string | null;
      sha256: string | null;
      fetched_at: Date | null;
      entity_count: number | null;
    }> = await this.db.query(
      `SELECT s.source, s.feed, s.dataset, s.last_checked_at IS NOT NULL AS checked,
              v.id AS version_id, v.sha256, v.fetched_at, v.entity_count
         FROM sources s LEFT JOIN list_versions v ON v.id = s.current_version_id
        WHERE s.enabled ORDER BY s.source`,
    );
    return rows.map((r) => ({
      source: r.source,
      feed: r.feed,
      dataset: r.dataset,
      checked: r.checked,
      version:
        r.version_id === null
          ? null
          : { source: r.source, feed: r.feed, dataset: r.dataset, versionId: Number(r.version_id), sha256: r.sha256!, fetchedAt: r.fetched_at!.toISOString(), entityCount: r.entity_count! },
    }));
  }

  /**
   * The source's current version and exactly its live entities, read in one snapshot so a
   * commit landing meanwhile cannot mix two versions.
   */
  async currentVersion(source: string): Promise<{ info: PartitionInfo; entities: Entity[] } | null> {
    return this.db.transaction(async (tx) => {
      const [row]: Array<{ feed: Feed; dataset: string; version_id: string | null; sha256: string; fetched_at: Date; entity_count: number }> = await tx.query(
        `SELECT s.feed, s.dataset, v.id AS version_id, v.sha256, v.fetched_at, v.entity_count
           FROM sources s JOIN list_versions v ON v.id = s.current_version_id
          WHERE s.source = $1 AND s.enabled`,
        [source],
      );
      if (!row || row.version_id === null) return null;
      // Text, not jsonb: one JSON.parse here is much cheaper than pg's per-row object building.
      const entities: Array<{ data: string }> = await tx.query(
        'SELECT data::text AS data FROM entities WHERE source = $1 AND removed_version_id IS NULL ORDER BY source_id',
        [source],
      );
      return {
        info: {
          source,
          feed: row.feed,
          dataset: row.dataset,
          versionId: Number(row.version_id),
          sha256: row.sha256,
          fetchedAt: row.fetched_at.toISOString(),
          entityCount: row.entity_count,
        },
        entities: entities.map((e) => JSON.parse(e.data) as Entity),
      };
    }, 'REPEATABLE READ');
  }
}
