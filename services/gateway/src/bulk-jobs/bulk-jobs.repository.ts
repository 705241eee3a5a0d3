import { Injectable } from '@nestjs/common';
import type { BulkJobItem, BulkJobStatus } from '@vigil/proto';
import { Database } from '@vigil/platform';

export type BulkJobRow = {
  id: string;
  client_id: string;
  total: number;
  processed: number;
  status: BulkJobStatus;
  created_at: Date;
  completed_at: Date | null;
};

@Injectable()
export class BulkJobsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Creates a job charged to quota lease `lease` in the same statement: the lease's `fixed` names
   * grow by the job's total, so the job and its charge exist together or not at all. False: the
   * lease had expired (or cannot hold the job), and no job was created.
   */
  async create(id: string, clientId: string, total: number, lease: string): Promise<boolean> {
    const { rowCount } = await this.db.execute(
      `WITH charged AS (
         UPDATE quota_leases SET fixed = fixed + $3 WHERE lease_id = $4 AND expires_at > now() AND fixed + $3 <= granted RETURNING 1
       )
       INSERT INTO bulk_jobs (id, client_id, total, status, quota_lease) SELECT $1, $2, $3, 'queued', $4 FROM charged`,
      [id, clientId, total, lease],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Jobs not yet completed, by status (the bulk queue's depth). */
  async openJobs(): Promise<Array<{ status: BulkJobStatus; jobs: number; names: number }>> {
    const rows = await this.db.query<{ status: BulkJobStatus; jobs: number; names: number }>(
      `SELECT status, count(*)::int AS jobs, coalesce(sum(total - processed), 0)::int AS names
         FROM bulk_jobs WHERE status <> 'completed' GROUP BY status`,
    );
    return rows;
  }

  /** Removes a job that could not be queued, and its charge with it (its lease is settling only after this). */
  async remove(id: string): Promise<void> {
    await this.db.query(
      `WITH gone AS (DELETE FROM bulk_jobs WHERE id = $1 RETURNING total, quota_lease)
       UPDATE quota_leases l SET fixed = GREATEST(0, l.fixed - gone.total) FROM gone WHERE l.lease_id = gone.quota_lease`,
      [id],
    );
  }

  /** The job only if it belongs to `clientId`: another client's id reads as not found. */
  async findOwned(id: string, clientId: string): Promise<BulkJobRow | null> {
    const rows = await this.db.query<BulkJobRow>(`SELECT * FROM bulk_jobs WHERE id = $1 AND client_id = $2`, [
      id,
      clientId,
    ]);
    return rows[0] ?? null;
  }

  async results(jobId: string, offset: number, limit: number): Promise<Array<BulkJobItem & { row: number }>> {
    const rows = await this.db.query<{ row_index: number; item: BulkJobItem }>(
      `SELECT row_index, item FROM bulk_job_results WHERE job_id = $1 AND row_index >= $2 ORDER BY row_index LIMIT $3`,
      [jobId, offset, limit],
    );
    return rows.map((r) => ({ row: r.row_index, ...r.item }));
  }

  /**
   * Stores one chunk's results and advances progress by the rows that were new, in one
   * transaction: a redelivered chunk inserts nothing and moves nothing, so every row has
   * exactly one result and `processed` only ever grows.
   */
  /** Rows of the job that hold a failure (`error`) instead of a screening result. */
  async failedCount(jobId: string): Promise<number> {
    const rows = await this.db.query<{ failed: number }>(
      `SELECT count(*)::int AS failed FROM bulk_job_results WHERE job_id = $1 AND item ? 'error'`,
      [jobId],
    );
    return rows[0]?.failed ?? 0;
  }

  async saveChunk(
    jobId: string,
    firstRow: number,
    items: BulkJobItem[],
  ): Promise<{ processed: number; total: number; clientId: string }> {
    return this.db.transaction(async (tx) => {
      const inserted = await tx.execute(
        `INSERT INTO bulk_job_results (job_id, row_index, item)
         SELECT $1, $2::int + ord - 1, item FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS t(item, ord)
         ON CONFLICT (job_id, row_index) DO NOTHING`,
        [jobId, firstRow, JSON.stringify(items)],
      );
      const rows = await tx.query<{ processed: number; total: number; clientId: string }>(
        `UPDATE bulk_jobs SET processed = processed + $2,
           status = CASE WHEN processed + $2 >= total THEN 'completed' ELSE 'running' END,
           completed_at = CASE WHEN processed + $2 >= total THEN coalesce(completed_at, now()) ELSE completed_at END
         WHERE id = $1 RETURNING processed, total, client_id AS "clientId"`,
        [jobId, inserted.rowCount],
      );
      return rows[0] ?? { processed: 0, total: 0, clientId: '' };
    });
  }
}
