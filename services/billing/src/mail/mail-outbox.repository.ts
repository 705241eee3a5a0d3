import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sql } from '../db/sql.js';

export type OutgoingMail = { to: string; subject: string; body: string };

/**
 * Billing's mail, kept in its own schema as a development mailbox (like auth's
 * MAIL_TRANSPORT=mailbox). A real transport would read from here; none is wired yet.
 */
@Injectable()
export class MailOutboxRepository {
  constructor(private readonly db: DataSource) {}

  async send(mail: OutgoingMail): Promise<void> {
    await sql(this.db, `INSERT INTO mail_outbox (recipient, subject, body) VALUES ($1, $2, $3)`, [mail.to, mail.subject, mail.body]);
  }
}
