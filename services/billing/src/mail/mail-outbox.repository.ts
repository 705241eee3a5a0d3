import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Database } from '@vigil/platform';
import { SecretBox } from '../crypto/secret-box.js';

export type OutgoingMail = { to: string; subject: string; body: string };

/**
 * Billing's mail, kept in its own schema as a development mailbox (like auth's
 * MAIL_TRANSPORT=mailbox). A real transport would read from here; none is wired yet.
 * Bodies are sealed (bound to the row's id): the welcome mail carries the new API key, and the
 * outbox must not be the one place a database dump still shows it.
 */
@Injectable()
export class MailOutboxRepository {
  constructor(
    private readonly db: Database,
    private readonly box: SecretBox,
  ) {}

  async send(mail: OutgoingMail): Promise<void> {
    const id = randomUUID();
    await this.db.query(`INSERT INTO mail_outbox (id, recipient, subject, body) VALUES ($1, $2, $3, $4)`, [
      id,
      mail.to,
      mail.subject,
      this.box.seal(mail.body, mailContext(id)),
    ]);
  }
}

/** Tests and a future transport open a body with this context. */
export const mailContext = (id: string) => `mail_outbox:${id}`;
