import { Injectable } from '@nestjs/common';
import { Database, type Queryable, type StoredEvent } from '@vigil/platform';

const PUBLISH_WINDOW = 64;

export type OutboxMessage = { id: string; subject: string; payload: unknown; traceparent?: string | null };

/** An outbox row as the relay publishes it: the payload as stored, already JSON, and the trace it belongs to. */
export type StoredOutboxMessage = StoredEvent;

/** Publishes a window of messages and answers each one's outcome, in order: undefined when published, else its error. */
export type PublishWindow = (messages: readonly StoredOutboxMessage[]) => Promise<readonly unknown[]>;

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
   * Publishes unpublished messages oldest first, at most `limit` outbox rows and `batchLimit`
   * outbox_batches rows (the screening log's events, one row per group commit, each message of
   * which is published on its own), with rows locked so two replicas do not publish the same ones
   * (JetStream de-duplicates by id what slips through). One transaction of one read and one delete
   * for both tables. Publishes are pipelined in windows; consumers must not rely on order. A
   * published row goes; a batch row with an unpublished message keeps only those. Answers how many
   * rows of each were taken, so the caller knows whether more wait.
   */
  async drain(
    limit: number,
    batchLimit: number,
    publish: PublishWindow,
  ): Promise<{ rows: number; batches: number }> {
    const { taken, error } = await this.db.transaction(async (tx) => {
      // As text: each payload is published as it is stored, not parsed here only to be serialised again.
      const messages: Array<StoredOutboxMessage & { batch: string | null }> = await tx.query(
        `WITH rows AS (
           SELECT id, subject, payload, traceparent, created_at FROM outbox
            WHERE published_at IS NULL ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED),
         batches AS (
           SELECT id, subject, messages FROM outbox_batches ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
         SELECT * FROM (
           SELECT NULL::text AS batch, id::text AS id, subject, payload::text AS json, traceparent FROM rows ORDER BY created_at) AS single
         UNION ALL
         SELECT * FROM (
           SELECT b.id::text, m.id, b.subject, m.payload::text, m.traceparent
             FROM batches b
            CROSS JOIN LATERAL ROWS FROM (json_to_recordset(b.messages) AS (id text, traceparent text, payload json))
                  WITH ORDINALITY AS m(id, traceparent, payload, n)
            ORDER BY b.id, m.n) AS batched`,
        [limit, batchLimit],
      );
      const { done, failure } = await publishAll(messages, publish);
      const published = new Set(done);
      const failed = messages.filter((m) => !published.has(m.id));
      const unfinished = new Set(failed.map((m) => m.batch));
      const rows = messages.filter((m) => m.batch === null).map((m) => m.id);
      const batches = [...new Set(messages.filter((m) => m.batch !== null).map((m) => m.batch!))];
      const finishedRows = rows.filter((id) => published.has(id));
      const finishedBatches = batches.filter((b) => !unfinished.has(b));
      // Published rows go: JetStream holds the event now (and de-duplicates a re-publication by id),
      // so keeping them would only grow the tables and rewrite each row once.
      if (finishedRows.length > 0 || finishedBatches.length > 0)
        await tx.query(
          `WITH single AS (DELETE FROM outbox WHERE id = ANY($1::uuid[])) DELETE FROM outbox_batches WHERE id = ANY($2::bigint[])`,
          [finishedRows, finishedBatches],
        );
      if (failure !== undefined) {
        const reason = reasonOf(failure);
        const failedRows = failed.filter((m) => m.batch === null).map((m) => m.id);
        const failedBatches = [...unfinished].filter((b): b is string => b !== null);
        if (failedRows.length > 0)
          await tx.query('UPDATE outbox SET attempts = attempts + 1, last_error = $2 WHERE id = ANY($1::uuid[])', [failedRows, reason]);
        if (failedBatches.length > 0)
          await tx.query(
            `UPDATE outbox_batches
                SET messages = (SELECT json_agg(m.message ORDER BY m.n) FROM json_array_elements(messages) WITH ORDINALITY AS m(message, n)
                                 WHERE m.message->>'id' = ANY($2::text[])),
                    attempts = attempts + 1, last_error = $3
              WHERE id = ANY($1::bigint[])`,
            [failedBatches, failed.filter((m) => m.batch !== null).map((m) => m.id), reason],
          );
      }
      return { taken: { rows: rows.length, batches: batches.length }, error: failure };
    });
    if (error !== undefined) throw error;
    return taken;
  }
}

/**
 * Publishes `messages` pipelined in windows, stopping after the first window with a failure;
 * answers the ids published and the first failure.
 */
async function publishAll(
  messages: readonly StoredOutboxMessage[],
  publish: PublishWindow,
): Promise<{ done: string[]; failure: unknown }> {
  const done: string[] = [];
  let failure: unknown;
  for (let i = 0; i < messages.length && failure === undefined; i += PUBLISH_WINDOW) {
    const window = messages.slice(i, i + PUBLISH_WINDOW);
    const outcomes = await publish(window);
    outcomes.forEach((outcome, k) => {
      if (outcome === undefined) done.push(window[k]!.id);
      else failure ??= outcome;
    });
  }
  return { done, failure };
}

const reasonOf = (failure: unknown) => (failure instanceof Error ? failure.message : String(failure));
