import { Injectable } from '@nestjs/common';
import type { ListFailure } from '@vigil/proto';
import { Database } from '@vigil/platform';

export type StoredFailure = { source: string; stage: ListFailure['stage']; error: string; failedAt: Date };

export type StoredVersion = {
  id: number;
  fetchedAt: Date;
  entityCount: number;
  sha256: string;
  fileSize: number;
  added: number;
  changed: number;
  removed: number;
  trigger: string;
};

/** Reads the ingestion history the admin console shows: failures, versions, and the screening count. */
@Injectable()
export class ListAdminRepository {
  constructor(private readonly db: Database) {}

  /** Each source's most recent failed refresh. */
  async lastFailures(): Promise<Map<string, StoredFailure>> {
    const rows: Array<{ source: string; stage: ListFailure['stage']; error: string; failed_at: Date }> = await this.db.query(
      `SELECT DISTINCT ON (source) source, stage, error, failed_at
         FROM ingestion_failures ORDER BY source, failed_at DESC, id DESC`,
    );
    return new Map(rows.map((r) => [r.source, { source: r.source, stage: r.stage, error: r.error, failedAt: r.failed_at }]));
  }

  /** A source's stored versions, newest first. */
  async versions(source: string, limit: number): Promise<StoredVersion[]> {
    const rows: Array<{
      id: string;
      fetched_at: Date;
      entity_count: number;
      sha256: string;
      file_size: string;
      added: number;
      changed: number;
      removed: number;
      trigger: string;
    }> = await this.db.query(
      `SELECT id, fetched_at, entity_count, sha256, file_size, added, changed, removed, trigger
         FROM list_versions WHERE source = $1 ORDER BY id DESC LIMIT $2`,
      [source, limit],
    );
    return rows.map((r) => ({
      id: Number(r.id),
      fetchedAt: r.fetched_at,
      entityCount: r.entity_count,
      sha256: r.sha256,
      fileSize: Number(r.file_size),
      added: r.added,
      changed: r.changed,
      removed: r.removed,
      trigger: r.trigger,
    }));
  }

  async totalSearches(): Promise<number> {
    const rows: Array<{ n: string }> = await this.db.query('SELECT count(*) AS n FROM screening_logs');
    return Number(rows[0]?.n ?? 0);
  }
}
