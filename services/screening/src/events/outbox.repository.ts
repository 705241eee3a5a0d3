import { Injectable } from '@nestjs/common';
import { Database, type Queryable } from '@vigil/platform';

const PUBLISH_WINDOW = 64;

export type OutboxMessage = { id: string; subject: string; payload: unknown; traceparent?: string | null };

/** An outbox row as the relay publishes it: the payload as stored, already JSON, and the trace it belongs to. */
export type StoredOutboxMessage = { id: string; subject: string; json: string; traceparent: string | null };

/** Anything that runs SQL: the Database, or an open transaction. */
export type Sql = Queryable;

/**
 * Events are written here in the transaction that makes them true and published
 * afterwards by the relay, so a crash between commit and publish delays an event
 * instead of losing it.
 */
@Injectable()
export class OutboxRepository {
  constructor(private readonly db: Database) {}

  async add(sql: Sql, messages: readonly OutboxMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await sql.query(
      `INSERT INTO outbox (id, subject, payload, traceparent)
       SELECT id, subject, payload::jsonb, traceparent
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) AS m(id, subject, payload, traceparent)`,
      [
        messages.map((m) => m.id),
        messages.map((m) => m.subject),
        messages.map((m) => JSON.stringify(m.payload)),
        messages.map((m) => m.traceparent ?? null),
      ],
    );
  }

  /**
   * Publishes unpublished messages oldest first, at most `limit`, with rows locked so two
   * replicas do not publish the same batch (JetStream de-duplicates by id what slips
   * through). Publishes are pipelined in windows; consumers must not rely on order.
   */
  async drain(limit: number, publish: (message: StoredOutboxMessage) => Promise<void>): Promise<number> {
    const { published, error } = await this.db.transaction(async (tx) => {
      // As text: the payload is published as it is, not parsed here only to be serialised again.
      const rows: StoredOutboxMessage[] = await tx.query(
        `SELECT id, subject, payload::text AS json, traceparent FROM outbox WHERE published_at IS NULL ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [limit],
      );
      const done: string[] = [];
      let failure: unknown;
      for (let i = 0; i < rows.length && failure === undefined; i += PUBLISH_WINDOW) {
        const window = rows.slice(i, i + PUBLISH_WINDOW);
        const settled = await Promise.allSettled(window.map((row) => publish(row)));
        settled.forEach((result, k) => {
          if (result.status === 'fulfilled') done.push(window[k]!.id);
          else failure ??= result.reason;
        });
      }
      // Published rows go: JetStream holds the event now (and de-duplicates a re-publication by id),
      // so keeping them would only grow the table by one row per screen and rewrite each row once.
      if (done.length > 0) await tx.query('DELETE FROM outbox WHERE id = ANY($1::uuid[])', [done]);
      if (failure !== undefined) {
        const failed = rows.filter((r) => !done.includes(r.id)).map((r) => r.id);
        const reason = failure instanceof Error ? failure.message : String(failure);
        await tx.query('UPDATE outbox SET attempts = attempts + 1, last_error = $2 WHERE id = ANY($1::uuid[])', [failed, reason]);
      }
      return { published: done.length, error: failure };
    });
    if (error !== undefined) throw error;
    return published;
  }
}
