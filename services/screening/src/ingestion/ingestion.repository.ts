import { Injectable } from '@nestjs/common';
import { Database } from '@vigil/platform';
import type { OutboxMessage, Sql } from '../events/outbox.repository.js';
import type { Delta, EntityRecord } from './delta.js';
import { LeaseLost, type IngestionStage } from './ingestion.errors.js';

export type Lease = {
  currentVersionId: number | null;
  currentSha256: string | null;
  currentEntityCount: number | null;
  /** Names of the files the current version was made from. */
  currentFiles: string[];
  /** Where those files were read from; null for a version recorded before locations were kept. */
  currentLocations: string[] | null;
};

export type NewVersion = {
  source: string;
  previousVersionId: number | null;
  fetchedAt: Date;
  sha256: string;
  fileSize: number;
  files: Array<{ name: string; sha256: string; bytes: number; location: string }>;
  format: string;
  parserVersion: string;
  duplicates: number;
  trigger: string;
};

const UPSERT_CHUNK = 1000;

@Injectable()
export class IngestionRepository {
  constructor(private readonly db: Database) {}

  /**
   * Takes the source's refresh lease (so replicas do not ingest the same source at once)
   * or returns null when another holder's lease is still running.
   */
  async acquireLease(source: string, owner: string, seconds: number): Promise<Lease | null> {
    const rows: Array<{ current_version_id: string | null; sha256: string | null; entity_count: number | null; files: Array<{ name: string; location?: string }> | null }> = await this.db.query(
      `WITH taken AS (
         UPDATE sources SET lease_owner = $2, lease_until = now() + make_interval(secs => $3)
          WHERE source = $1 AND enabled AND (lease_until IS NULL OR lease_until < now() OR lease_owner = $2)
          RETURNING current_version_id)
       SELECT t.current_version_id, v.sha256, v.entity_count, v.files FROM taken t LEFT JOIN list_versions v ON v.id = t.current_version_id`,
      [source, owner, seconds],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      currentVersionId: row.current_version_id === null ? null : Number(row.current_version_id),
      currentSha256: row.sha256,
      currentEntityCount: row.entity_count,
      currentFiles: (row.files ?? []).map((f) => f.name),
      currentLocations: row.files && row.files.every((f) => typeof f.location === 'string') ? row.files.map((f) => f.location!) : null,
    };
  }

  /** Extends a lease this owner still holds; false when it lapsed and someone else took it. */
  async renewLease(source: string, owner: string, seconds: number): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `UPDATE sources SET lease_until = now() + make_interval(secs => $3) WHERE source = $1 AND lease_owner = $2 RETURNING source`,
      [source, owner, seconds],
    );
    return rows.length > 0;
  }

  /** Ends every lease this owner holds (a stopping process), without stamping the sources as checked. */
  async releaseLeases(owner: string): Promise<void> {
    await this.db.query('UPDATE sources SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1', [owner]);
  }

  /** Ends the lease; `checked` stamps the source as looked at now (unchanged or failed). */
  async releaseLease(source: string, owner: string, checked: boolean): Promise<void> {
    await this.db.query(
      `UPDATE sources SET lease_owner = NULL, lease_until = NULL, last_checked_at = CASE WHEN $3 THEN now() ELSE last_checked_at END
        WHERE source = $1 AND lease_owner = $2`,
      [source, owner, checked],
    );
  }

  async markChecked(source: string): Promise<void> {
    await this.db.query('UPDATE sources SET last_checked_at = now() WHERE source = $1', [source]);
  }

  /** source id → content hash of every entity the current version has live. */
  async liveHashes(source: string): Promise<Map<string, string>> {
    const rows: Array<{ source_id: string; content_hash: string }> = await this.db.query(
      'SELECT source_id, content_hash FROM entities WHERE source = $1 AND removed_version_id IS NULL',
      [source],
    );
    return new Map(rows.map((r) => [r.source_id, r.content_hash]));
  }

  /**
   * Stores a new list version in one transaction: the version row, the added and changed
   * entities, the removed stamps, the delta rows, the source's current version and the
   * outbox event built from the new version id.
   */
  async commitVersion(
    owner: string,
    version: NewVersion,
    records: readonly EntityRecord[],
    delta: Delta,
    event: (versionId: number) => OutboxMessage,
    addToOutbox: (sql: Sql, messages: OutboxMessage[]) => Promise<void>,
  ): Promise<number> {
    return this.db.transaction(async (tx) => {
      // Fencing: a holder whose lease lapsed (a stalled process) must not commit over the replica that took it since.
      const held: unknown[] = await tx.query('SELECT 1 FROM sources WHERE source = $1 AND lease_owner = $2 FOR UPDATE', [version.source, owner]);
      if (held.length === 0) throw new LeaseLost();
      const [row]: Array<{ id: string }> = await tx.query(
        `INSERT INTO list_versions (source, previous_version_id, fetched_at, sha256, entity_count, file_size, files, format, parser_version,
                                    added, changed, removed, duplicates, trigger)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
        [
          version.source,
          version.previousVersionId,
          version.fetchedAt,
          version.sha256,
          records.length,
          version.fileSize,
          JSON.stringify(version.files),
          version.format,
          version.parserVersion,
          delta.added.length,
          delta.changed.length,
          delta.removed.length,
          version.duplicates,
          version.trigger,
        ],
      );
      const versionId = Number(row!.id);
      const touched = new Set([...delta.added, ...delta.changed]);
      const upserts = records.filter((r) => touched.has(r.sourceId));
      for (let i = 0; i < upserts.length; i += UPSERT_CHUNK) {
        const chunk = upserts.slice(i, i + UPSERT_CHUNK);
        await tx.query(
          `INSERT INTO entities (source, source_id, entity_type, primary_name, search_text, data, content_hash, added_version_id)
           SELECT $1, u.source_id, u.entity_type, u.primary_name, u.search_text, u.data::jsonb, u.content_hash, $2
             FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
                  AS u(source_id, entity_type, primary_name, search_text, data, content_hash)
           ON CONFLICT (source, source_id) DO UPDATE SET
             entity_type = EXCLUDED.entity_type, primary_name = EXCLUDED.primary_name, search_text = EXCLUDED.search_text,
             data = EXCLUDED.data, content_hash = EXCLUDED.content_hash,
             -- an entity that comes back after a removal is added again, not changed
             added_version_id = CASE WHEN entities.removed_version_id IS NULL THEN entities.added_version_id ELSE EXCLUDED.added_version_id END,
             changed_version_id = CASE WHEN entities.removed_version_id IS NULL THEN EXCLUDED.added_version_id ELSE entities.changed_version_id END,
             removed_version_id = NULL`,
          [
            version.source,
            versionId,
            chunk.map((r) => r.sourceId),
            chunk.map((r) => r.type),
            chunk.map((r) => r.primaryName),
            chunk.map((r) => r.searchText),
            chunk.map((r) => r.json),
            chunk.map((r) => r.hash),
          ],
        );
      }
      if (delta.removed.length > 0) {
        await tx.query(
          'UPDATE entities SET removed_version_id = $2 WHERE source = $1 AND source_id = ANY($3::text[]) AND removed_version_id IS NULL',
          [version.source, versionId, delta.removed],
        );
      }
      const changes = [
        ...delta.added.map((id) => [id, 'added'] as const),
        ...delta.changed.map((id) => [id, 'changed'] as const),
        ...delta.removed.map((id) => [id, 'removed'] as const),
      ];
      for (let i = 0; i < changes.length; i += UPSERT_CHUNK * 5) {
        const chunk = changes.slice(i, i + UPSERT_CHUNK * 5);
        await tx.query(
          'INSERT INTO entity_changes (version_id, source_id, change) SELECT $1, * FROM unnest($2::text[], $3::text[])',
          [versionId, chunk.map((c) => c[0]), chunk.map((c) => c[1])],
        );
      }
      await tx.query(
        `UPDATE sources SET current_version_id = $2, last_checked_at = now(), last_error = NULL, last_error_at = NULL,
                            lease_owner = NULL, lease_until = NULL, updated_at = now()
          WHERE source = $1`,
        [version.source, versionId],
      );
      await addToOutbox(tx, [event(versionId)]);
      return versionId;
    });
  }

  /** Records a failed refresh and its event; the current version is left as it is. */
  async recordFailure(
    failure: { source: string; stage: IngestionStage; error: string; sha256: string | null; servingVersionId: number | null; trigger: string },
    event: OutboxMessage,
    addToOutbox: (sql: Sql, messages: OutboxMessage[]) => Promise<void>,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO ingestion_failures (source, stage, error, sha256, serving_version_id, trigger) VALUES ($1, $2, $3, $4, $5, $6)`,
        [failure.source, failure.stage, failure.error, failure.sha256, failure.servingVersionId, failure.trigger],
      );
      await tx.query('UPDATE sources SET last_error = $2, last_error_at = now(), updated_at = now() WHERE source = $1', [failure.source, failure.error]);
      await addToOutbox(tx, [event]);
    });
  }

  /** The delta a stored version recorded, by change kind (source ids). */
  async versionDelta(versionId: number): Promise<Delta> {
    const rows: Array<{ source_id: string; change: 'added' | 'changed' | 'removed' }> = await this.db.query(
      'SELECT source_id, change FROM entity_changes WHERE version_id = $1',
      [versionId],
    );
    const byId = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });
    const pick = (kind: string) => rows.filter((r) => r.change === kind).map((r) => r.source_id).sort(byId);
    return { added: pick('added'), changed: pick('changed'), removed: pick('removed') };
  }
}
