import { Injectable } from '@nestjs/common';
import type { MailboxMessage } from '@vigil/proto';
import { Database } from '@vigil/platform';

type Row = { id: string; recipient: string; sender: string; subject: string; text_body: string; html_body: string | null; created_at: Date };

@Injectable()
export class MailboxRepository {
  constructor(private readonly db: Database) {}

  async store(message: { to: string; from: string; subject: string; text: string; html?: string; raw: string }): Promise<void> {
    await this.db.query(
      `INSERT INTO mailbox (recipient, sender, subject, text_body, html_body, raw) VALUES ($1, $2, $3, $4, $5, $6)`,
      [message.to.toLowerCase(), message.from, message.subject, message.text, message.html ?? null, message.raw],
    );
  }

  async list(to: string | undefined, limit: number): Promise<MailboxMessage[]> {
    const rows: Row[] = await this.db.query(
      `SELECT id, recipient, sender, subject, text_body, html_body, created_at FROM mailbox
        WHERE ($1::text IS NULL OR recipient = $1) ORDER BY created_at DESC, id LIMIT $2`,
      [to ?? null, limit],
    );
    return rows.map((r) => ({
      id: r.id,
      to: r.recipient,
      from: r.sender,
      subject: r.subject,
      text: r.text_body,
      html: r.html_body,
      created_at: r.created_at.toISOString(),
    }));
  }
}
