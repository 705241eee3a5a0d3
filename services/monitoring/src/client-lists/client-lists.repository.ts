import { Injectable } from '@nestjs/common';
import type { CheckFrequency, ClientList, ClientListEntry, EntryScreeningStatus } from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import { Database } from '@vigil/platform';
import type { ClientListRow } from './client-lists.csv.js';

type ListRow = {
  id: string;
  name: string;
  description: string | null;
  file_name: string;
  entry_count: number;
  created_at: Date;
  sanctioned: number;
  review: number;
  clear: number;
  unknown: number;
};

/** A list's columns with its entries counted by screening status (from their monitored entities). */
const LIST_COLUMNS = `l.id, l.name, l.description, l.file_name, l.entry_count, l.created_at,
  COALESCE(c.sanctioned, 0) AS sanctioned, COALESCE(c.review, 0) AS review, COALESCE(c.clear, 0) AS clear,
  l.entry_count - COALESCE(c.sanctioned, 0) - COALESCE(c.review, 0) - COALESCE(c.clear, 0) AS unknown`;
const LIST_COUNTS = `LEFT JOIN LATERAL (
    SELECT count(*) FILTER (WHERE m.screening_status = 'sanctioned')::int AS sanctioned,
           count(*) FILTER (WHERE m.screening_status = 'review')::int AS review,
           count(*) FILTER (WHERE m.screening_status = 'clear')::int AS clear
      FROM monitored_entities m WHERE m.client_list_id = l.id) c ON true`;

export type StoredEntry = { row: number; name: string; email: string | null; aliases: string[] };

const toList = (r: ListRow): ClientList => ({
  id: r.id,
  name: r.name,
  description: r.description,
  file_name: r.file_name,
  count: r.entry_count,
  created_at: r.created_at.toISOString(),
  counts: { sanctioned: r.sanctioned, review: r.review, clear: r.clear, unknown: Math.max(0, r.unknown) },
});

/** Upload parts older than this are abandoned uploads. */
const STALE_PARTS = '1 hour';

/**
 * Client lists, their entries and staged upload parts. Every statement is bounded by
 * `client_id`: another client's list id finds nothing, whoever asks.
 */
@Injectable()
export class ClientListsRepository {
  constructor(private readonly db: Database) {}

  /** Stores one part; a part id already used by another client is left alone (and reported as not stored). */
  async savePart(clientId: string, uploadId: string, part: number, data: Buffer): Promise<boolean> {
    if (part === 0)
      await this.db.query(`DELETE FROM client_list_upload_parts WHERE created_at < now() - interval '${STALE_PARTS}'`);
    const stored: unknown[] = await this.db.query(
      `INSERT INTO client_list_upload_parts (upload_id, part, client_id, data) VALUES ($1, $2, $3, $4)
       ON CONFLICT (upload_id, part) DO UPDATE SET data = excluded.data, created_at = now()
         WHERE client_list_upload_parts.client_id = excluded.client_id
       RETURNING part`,
      [uploadId, part, clientId, data],
    );
    return stored.length === 1;
  }

  async parts(clientId: string, uploadId: string): Promise<Array<{ part: number; data: Buffer }>> {
    return this.db.query(
      'SELECT part, data FROM client_list_upload_parts WHERE client_id = $1 AND upload_id = $2 ORDER BY part',
      [clientId, uploadId],
    );
  }

  async discardUpload(clientId: string, uploadId: string): Promise<void> {
    await this.db.query('DELETE FROM client_list_upload_parts WHERE client_id = $1 AND upload_id = $2', [
      clientId,
      uploadId,
    ]);
  }

  /**
   * The list, its entries and the end of its upload, in one transaction. The list takes its
   * upload's id, so completing one upload twice (a retry whose first answer was lost, under the
   * same Idempotency-Key) finds the list the first completion stored instead of storing it again;
   * a second completion racing the first waits for it on the key. Null: another client's list
   * has that id.
   */
  async create(
    clientId: string,
    uploadId: string,
    list: { name: string; description: string | null; fileName: string },
    rows: readonly ClientListRow[],
    checkFrequency: CheckFrequency,
  ): Promise<ClientList | null> {
    return this.db.transaction(async (tx) => {
      const id = uploadId;
      const inserted: unknown[] = await tx.query(
        `INSERT INTO client_lists (id, client_id, name, description, file_name, entry_count)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (id) DO NOTHING
         RETURNING id`,
        [id, clientId, list.name, list.description, list.fileName, rows.length],
      );
      if (inserted.length === 0) {
        const [stored]: ListRow[] = await tx.query(
          `SELECT ${LIST_COLUMNS} FROM client_lists l ${LIST_COUNTS} WHERE l.id = $1 AND l.client_id = $2`,
          [id, clientId],
        );
        await tx.query('DELETE FROM client_list_upload_parts WHERE client_id = $1 AND upload_id = $2', [
          clientId,
          uploadId,
        ]);
        return stored ? toList(stored) : null;
      }
      // One statement per 5,000 rows keeps each under Postgres's parameter and memory limits.
      for (let start = 0; start < rows.length; start += 5_000) {
        const chunk = rows.slice(start, start + 5_000);
        await tx.query(
          `INSERT INTO client_list_entries (list_id, row_number, id, name, email, aliases)
           SELECT $1, r.row_number, r.id, r.name, r.email,
                  ARRAY(SELECT jsonb_array_elements_text(r.aliases::jsonb))
             FROM unnest($2::int[], $3::uuid[], $4::text[], $5::text[], $6::text[]) AS r(row_number, id, name, email, aliases)`,
          [
            id,
            chunk.map((r) => r.row),
            chunk.map(() => randomUUID()),
            chunk.map((r) => r.name),
            chunk.map((r) => r.email),
            chunk.map((r) => JSON.stringify(r.aliases)),
          ],
        );
      }
      // Every entry is monitored like an entity added by hand, and due at once: the scheduler
      // screens the new list in bulk (status, score, source) right after the upload.
      await tx.query(
        `INSERT INTO monitored_entities (id, client_id, entity_name, entity_email, entity_aliases, check_frequency,
                                         origin, client_list_id, client_list_entry_id, next_check_due)
         SELECT gen_random_uuid(), $2, e.name, e.email, e.aliases, $3, 'client_list', e.list_id, e.id, now()
           FROM client_list_entries e WHERE e.list_id = $1`,
        [id, clientId, checkFrequency],
      );
      await tx.query('DELETE FROM client_list_upload_parts WHERE client_id = $1 AND upload_id = $2', [
        clientId,
        uploadId,
      ]);
      const [created]: ListRow[] = await tx.query(
        `SELECT ${LIST_COLUMNS} FROM client_lists l ${LIST_COUNTS} WHERE l.id = $1`,
        [id],
      );
      return toList(created!);
    });
  }

  async lists(clientId: string): Promise<ClientList[]> {
    const rows: ListRow[] = await this.db.query(
      `SELECT ${LIST_COLUMNS} FROM client_lists l ${LIST_COUNTS}
        WHERE l.client_id = $1 ORDER BY l.created_at DESC, l.id DESC`,
      [clientId],
    );
    return rows.map(toList);
  }

  async list(clientId: string, id: string): Promise<ClientList | null> {
    const rows: ListRow[] = await this.db.query(
      `SELECT ${LIST_COLUMNS} FROM client_lists l ${LIST_COUNTS} WHERE l.client_id = $1 AND l.id = $2`,
      [clientId, id],
    );
    return rows[0] ? toList(rows[0]) : null;
  }

  /** A page of a list's entries in upload order, after `afterRow`. */
  async entries(clientId: string, id: string, afterRow: number, limit: number): Promise<StoredEntry[]> {
    return this.db.query(
      `SELECT e.row_number AS row, e.name, e.email, e.aliases
         FROM client_list_entries e JOIN client_lists l ON l.id = e.list_id
        WHERE l.client_id = $1 AND l.id = $2 AND e.row_number > $3
        ORDER BY e.row_number
        LIMIT $4`,
      [clientId, id, afterRow, limit],
    );
  }

  /** A page of a list's entries in upload order, optionally only those whose name, email or an alias contains `search`. */
  async search(
    clientId: string,
    id: string,
    search: string | undefined,
    page: { limit: number; offset: number },
  ): Promise<{ entries: ClientListEntry[]; total: number }> {
    const pattern = search === undefined ? null : `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const where = `l.client_id = $1 AND l.id = $2
       AND ($3::text IS NULL OR e.name ILIKE $3 OR e.email ILIKE $3 OR EXISTS (SELECT 1 FROM unnest(e.aliases) a WHERE a ILIKE $3))`;
    const rows: Array<{
      id: string;
      name: string;
      email: string | null;
      aliases: string[];
      added_at: Date;
      screening_status: EntryScreeningStatus | null;
      screening_score: number | null;
      screening_source: string | null;
      screening_details: string | null;
      monitored_entity_id: string | null;
    }> = await this.db.query(
      `SELECT e.id, e.name, e.email, e.aliases, e.added_at, m.screening_status, m.screening_score,
                m.screening_source, m.screening_details, m.id AS monitored_entity_id
           FROM client_list_entries e JOIN client_lists l ON l.id = e.list_id
           LEFT JOIN monitored_entities m ON m.client_list_entry_id = e.id
          WHERE ${where}
          ORDER BY e.row_number
          LIMIT $4 OFFSET $5`,
      [clientId, id, pattern, page.limit, page.offset],
    );
    const [count] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM client_list_entries e JOIN client_lists l ON l.id = e.list_id WHERE ${where}`,
      [clientId, id, pattern],
    );
    return {
      entries: rows.map((r) => ({
        id: r.id,
        name: r.name,
        email: r.email,
        aliases: r.aliases,
        added_at: r.added_at.toISOString(),
        screening_status: r.screening_status ?? 'unknown',
        screening_score: r.screening_score,
        screening_source: r.screening_source,
        screening_details: r.screening_details,
        monitored_entity_id: r.monitored_entity_id,
      })),
      total: count?.n ?? 0,
    };
  }

  /** True when the client had this list (its entries go with it). */
  async delete(clientId: string, id: string): Promise<boolean> {
    const { rowCount: deleted } = await this.db.execute('DELETE FROM client_lists WHERE client_id = $1 AND id = $2', [
      clientId,
      id,
    ]);
    return deleted === 1;
  }
}
