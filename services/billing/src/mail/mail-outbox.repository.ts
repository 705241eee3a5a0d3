import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Database, type Queryable } from '@vigil/platform';
import { SecretBox } from '../crypto/secret-box.js';

export type OutboxMail = { to: string; subject: string; body: string };
export type ClaimedMail = OutboxMail & { id: string; attempts: number };
type ClaimedRow = { id: string; recipient: string; subject: string; body: string; attempts: number };

/**
 * Billing's mail queue. A mail is written here (in the transaction of what caused it, where there
 * is one) and MailOutboxWorker sends it: claimed with a lease, sent, marked sent; retried with
 * backoff on failure, dead after the last attempt. Bodies are sealed (bound to the row's id): the
 * welcome mail carries the new API key, and the outbox must not be the one place a database dump
 * still shows it.
 */
@Injectable()
export class MailOutboxRepository {
  constructor(
    private readonly db: Database,
    private readonly box: SecretBox,
  ) {}

  async enqueue(mail: OutboxMail, q: Queryable = this.db): Promise<void> {
    const id = randomUUID();
    await q.query(`INSERT INTO mail_outbox (id, recipient, subject, body) VALUES ($1, $2, $3, $4)`, [
      id,
      mail.to,
      mail.subject,
      this.box.seal(mail.body, mailContext(id)),
    ]);
  }

  /**
   * Takes up to `limit` due mails for this sender: pending ones whose retry time came, and ones a
   * sender claimed but never marked (it crashed mid-send) once their lease ran out. SKIP LOCKED: two
   * replicas never take the same row. `attempts` counts claims and fences the marks below.
   */
  async claimDue(limit: number, leaseSeconds: number): Promise<ClaimedMail[]> {
    const rows: ClaimedRow[] = await this.db.query(
      `UPDATE mail_outbox m SET status = 'sending', attempts = m.attempts + 1,
              claimed_until = now() + make_interval(secs => $2)
        WHERE m.id IN (
          SELECT id FROM mail_outbox
           WHERE (status = 'pending' AND next_attempt_at <= now()) OR (status = 'sending' AND claimed_until < now())
           ORDER BY next_attempt_at, created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING m.id, m.recipient, m.subject, m.body, m.attempts`,
      [limit, leaseSeconds],
    );
    return rows.map((row) => ({
      id: row.id,
      to: row.recipient,
      subject: row.subject,
      body: this.box.open(row.body, mailContext(row.id)),
      attempts: row.attempts,
    }));
  }

  /** False when this claim is no longer the row's (its lease ran out and another sender took it). */
  async markSent(mail: Pick<ClaimedMail, 'id' | 'attempts'>): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `UPDATE mail_outbox SET status = 'sent', sent_at = now(), claimed_until = NULL, last_error = NULL
        WHERE id = $1 AND status = 'sending' AND attempts = $2 RETURNING id`,
      [mail.id, mail.attempts],
    );
    return rows.length > 0;
  }

  /** Back to pending after `retryInSeconds`, or dead when `dead` (no further attempt). */
  async markFailed(
    mail: Pick<ClaimedMail, 'id' | 'attempts'>,
    error: string,
    outcome: { dead: boolean; retryInSeconds: number },
  ): Promise<void> {
    await this.db.query(
      `UPDATE mail_outbox SET status = $3, last_error = $4, claimed_until = NULL,
              next_attempt_at = now() + make_interval(secs => $5)
        WHERE id = $1 AND status = 'sending' AND attempts = $2`,
      [mail.id, mail.attempts, outcome.dead ? 'dead' : 'pending', error.slice(0, 1000), outcome.retryInSeconds],
    );
  }
}

/** Tests open a body with this context. */
export const mailContext = (id: string) => `mail_outbox:${id}`;

/** The Message-ID a mail keeps on every attempt, so a receiver can tell a resend after a crash from a new mail. */
export const outboxMessageId = (id: string) => `<${id}@billing.vigil>`;
