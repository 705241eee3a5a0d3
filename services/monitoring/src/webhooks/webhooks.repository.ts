import { Injectable } from '@nestjs/common';
import { WEBHOOK_TEST_EVENT, type WebhookDelivery, type WebhookEndpoint, type WebhookEventType } from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import { Database, type Transaction } from '@vigil/platform';

type EndpointRow = {
  id: string;
  client_id: string;
  url: string;
  event_types: WebhookEventType[];
  description: string | null;
  /** Sealed (enc:v1:…) by WebhookSecrets; plain only for rows an older replica wrote. */
  secret: string;
  enabled: boolean;
  disabled_reason: string | null;
  created_at: Date;
};

const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  url: r.url,
  event_types: r.event_types,
  description: r.description,
  enabled: r.enabled,
  disabled_reason: r.disabled_reason,
  created_at: r.created_at.toISOString(),
});

/** A delivery claimed for sending, with what signing it needs. */
export type ClaimedDelivery = {
  id: string;
  endpointId: string;
  clientId: string;
  url: string;
  /** Sealed (enc:v1:…) by WebhookSecrets; plain only for rows an older replica wrote. */
  secret: string;
  payload: string;
  attemptCount: number;
};

/**
 * Webhook endpoints, the durable delivery queue and every attempt. Deliveries are written in the
 * same transaction as what they announce (an alert), so none is lost between the two.
 */
@Injectable()
export class WebhooksRepository {
  constructor(readonly db: Database) {}

  /** Deliveries waiting for their first or next attempt (the webhook queue's depth). */
  async pendingTotal(): Promise<number> {
    const rows: Array<{ n: number }> = await this.db.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`,
    );
    return rows[0]?.n ?? 0;
  }

  async create(
    clientId: string,
    endpoint: { url: string; eventTypes: WebhookEventType[]; description: string | null; secret: string },
  ): Promise<WebhookEndpoint> {
    const [row]: EndpointRow[] = await this.db.query(
      `INSERT INTO webhook_endpoints (id, client_id, url, event_types, description, secret)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [randomUUID(), clientId, endpoint.url, endpoint.eventTypes, endpoint.description, endpoint.secret],
    );
    return toEndpoint(row!);
  }

  async list(clientId: string): Promise<WebhookEndpoint[]> {
    const rows: EndpointRow[] = await this.db.query(
      'SELECT * FROM webhook_endpoints WHERE client_id = $1 ORDER BY created_at DESC, id',
      [clientId],
    );
    return rows.map(toEndpoint);
  }

  async exists(clientId: string, id: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query('SELECT 1 FROM webhook_endpoints WHERE client_id = $1 AND id = $2', [
      clientId,
      id,
    ]);
    return rows.length === 1;
  }

  /** The endpoint with its new sealed secret, or null when the client has none by that id. */
  async replaceSecret(clientId: string, id: string, sealedSecret: string): Promise<WebhookEndpoint | null> {
    const rows: EndpointRow[] = await this.db.query(
      'UPDATE webhook_endpoints SET secret = $3 WHERE client_id = $1 AND id = $2 RETURNING *',
      [clientId, id, sealedSecret],
    );
    return rows[0] ? toEndpoint(rows[0]) : null;
  }

  /** The deleted endpoint (for the audit chain: what was deleted), or null when the client has none by that id. */
  async delete(clientId: string, id: string): Promise<WebhookEndpoint | null> {
    const rows: EndpointRow[] = await this.db.query(
      'DELETE FROM webhook_endpoints WHERE client_id = $1 AND id = $2 RETURNING *',
      [clientId, id],
    );
    return rows[0] ? toEndpoint(rows[0]) : null;
  }

  /**
   * Queues `payload` for every enabled endpoint of the client subscribed to `eventType`, once per
   * (endpoint, eventKey): a redelivered event does not queue it twice. Returns how many were queued.
   */
  async enqueue(
    tx: Transaction | Database,
    clientId: string,
    eventType: WebhookEventType,
    eventKey: string,
    data: unknown,
  ): Promise<number> {
    const payload = { type: eventType, timestamp: new Date().toISOString(), data };
    const rows: unknown[] = await tx.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, client_id, event_type, event_key, payload)
       SELECT gen_random_uuid(), id, client_id, $2, $3, $4::jsonb FROM webhook_endpoints
        WHERE client_id = $1 AND enabled AND $2 = ANY(event_types)
       ON CONFLICT (endpoint_id, event_key) DO NOTHING
       RETURNING id`,
      [clientId, eventType, eventKey, JSON.stringify(payload)],
    );
    return rows.length;
  }

  /**
   * Queues a test event for one of the client's endpoints, already claimed for `leaseMs` by the
   * caller who sends it at once (the worker leaves it alone); null when the client has no such endpoint.
   */
  async enqueueTest(clientId: string, endpointId: string, leaseMs: number): Promise<ClaimedDelivery | null> {
    const id = randomUUID();
    const payload = {
      type: WEBHOOK_TEST_EVENT,
      timestamp: new Date().toISOString(),
      data: {
        webhook_id: endpointId,
        message: 'A test event from Vigil: this endpoint can receive and verify deliveries.',
      },
    };
    const rows: Array<{ url: string; secret: string }> = await this.db.query(
      `WITH queued AS (
         INSERT INTO webhook_deliveries (id, endpoint_id, client_id, event_type, event_key, payload, claimed_until)
         SELECT $1, id, client_id, $3, $4, $5::jsonb, now() + ($6::int * interval '1 millisecond')
           FROM webhook_endpoints WHERE client_id = $2 AND id = $7
         RETURNING endpoint_id)
       SELECT e.url, e.secret FROM queued JOIN webhook_endpoints e ON e.id = queued.endpoint_id`,
      [id, clientId, WEBHOOK_TEST_EVENT, `test:${id}`, JSON.stringify(payload), leaseMs, endpointId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id,
      endpointId,
      clientId,
      url: row.url,
      secret: row.secret,
      payload: JSON.stringify(payload),
      attemptCount: 0,
    };
  }

  /**
   * Claims due deliveries for this replica (row locks skipped by the others, a lease in case it dies).
   */
  async claimDue(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const rows: Array<{
      id: string;
      endpoint_id: string;
      client_id: string;
      url: string;
      secret: string;
      payload: unknown;
      attempt_count: number;
    }> = await this.db.query(
      `WITH due AS (
       SELECT d.id FROM webhook_deliveries d
        WHERE d.status = 'pending' AND d.next_attempt_at <= now()
          AND (d.claimed_until IS NULL OR d.claimed_until < now())
        ORDER BY d.next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
     UPDATE webhook_deliveries d SET claimed_until = now() + ($2::int * interval '1 millisecond')
       FROM due, webhook_endpoints e
      WHERE d.id = due.id AND e.id = d.endpoint_id
     RETURNING d.id, d.endpoint_id, d.client_id, e.url, e.secret, d.payload, d.attempt_count`,
      [limit, leaseMs],
    );
    return rows.map((r) => ({
      id: r.id,
      endpointId: r.endpoint_id,
      clientId: r.client_id,
      url: r.url,
      secret: r.secret,
      payload: JSON.stringify(r.payload),
      attemptCount: r.attempt_count,
    }));
  }

  /**
   * Records one attempt and its outcome: delivered, retry at `retryAt`, failed for good, or (410)
   * failed with the endpoint disabled. Returns the endpoint this attempt disabled (null when it
   * disabled none, or the endpoint was disabled already), for the client's audit chain.
   */
  async recordAttempt(
    delivery: ClaimedDelivery,
    attempt: { statusCode: number | null; error: string | null; durationMs: number },
    outcome: { kind: 'delivered' } | { kind: 'retry'; retryAt: Date } | { kind: 'failed' } | { kind: 'gone' },
  ): Promise<WebhookEndpoint | null> {
    return this.db.transaction(async (tx) => {
      const number = delivery.attemptCount + 1;
      await tx.query(
        `INSERT INTO webhook_attempts (delivery_id, attempt, status_code, error, duration_ms)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
        [delivery.id, number, attempt.statusCode, attempt.error, attempt.durationMs],
      );
      const status = outcome.kind === 'delivered' ? 'delivered' : outcome.kind === 'retry' ? 'pending' : 'failed';
      await tx.query(
        `UPDATE webhook_deliveries SET attempt_count = $2, status = $3, claimed_until = NULL,
                next_attempt_at = $4, delivered_at = CASE WHEN $3 = 'delivered' THEN now() END
          WHERE id = $1`,
        [delivery.id, number, status, outcome.kind === 'retry' ? outcome.retryAt : null],
      );
      if (outcome.kind !== 'gone') return null;
      const disabled: EndpointRow[] = await tx.query(
        `UPDATE webhook_endpoints SET enabled = false, disabled_reason = $2 WHERE id = $1 AND enabled RETURNING *`,
        [delivery.endpointId, 'The endpoint answered 410 Gone; deliveries stopped.'],
      );
      await tx.query(
        `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL
          WHERE endpoint_id = $1 AND status = 'pending'`,
        [delivery.endpointId],
      );
      return disabled[0] ? toEndpoint(disabled[0]) : null;
    });
  }

  /** One of the client's deliveries, as the delivery log shows it. */
  async delivery(clientId: string, endpointId: string, id: string): Promise<WebhookDelivery | null> {
    return (await this.deliveries(clientId, endpointId, { limit: 1, offset: 0 }, id))[0] ?? null;
  }

  async deliveries(
    clientId: string,
    endpointId: string,
    page: { limit: number; offset: number },
    only: string | null = null,
  ): Promise<WebhookDelivery[]> {
    const rows: Array<{
      id: string;
      event_type: WebhookDelivery['event_type'];
      status: WebhookDelivery['status'];
      next_attempt_at: Date | null;
      created_at: Date;
      delivered_at: Date | null;
      attempts: Array<{ attempted_at: string; status_code: number | null; error: string | null; duration_ms: number }>;
    }> = await this.db.query(
      `SELECT d.id, d.event_type, d.status, d.next_attempt_at, d.created_at, d.delivered_at,
              COALESCE((SELECT json_agg(json_build_object('attempted_at', a.attempted_at, 'status_code', a.status_code,
                                 'error', a.error, 'duration_ms', a.duration_ms) ORDER BY a.attempt)
                          FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]') AS attempts
         FROM webhook_deliveries d
        WHERE d.client_id = $1 AND d.endpoint_id = $2 AND ($5::uuid IS NULL OR d.id = $5)
        ORDER BY d.created_at DESC, d.id LIMIT $3 OFFSET $4`,
      [clientId, endpointId, page.limit, page.offset, only],
    );
    return rows.map((r) => ({
      id: r.id,
      event_type: r.event_type,
      status: r.status,
      next_attempt_at: r.status === 'pending' ? (r.next_attempt_at?.toISOString() ?? null) : null,
      created_at: r.created_at.toISOString(),
      delivered_at: r.delivered_at?.toISOString() ?? null,
      attempts: r.attempts.map((a) => ({ ...a, attempted_at: new Date(a.attempted_at).toISOString() })),
    }));
  }

  async pendingCount(clientId: string): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE client_id = $1 AND status = 'pending'`,
      [clientId],
    );
    return row!.n;
  }
}
