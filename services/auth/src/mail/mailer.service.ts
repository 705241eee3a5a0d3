import { Inject, Injectable, Logger } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import { AUTH_CONFIG, type AuthConfig } from '../env.js';
import { MailboxRepository } from './mailbox.repository.js';

export type OutgoingMail = { to: string; subject: string; text: string; html?: string };

/**
 * Every message is built by nodemailer. With MAIL_TRANSPORT=smtp it goes out over
 * SMTP; with `mailbox` (the default for `npm start` and tests) the exact MIME
 * message nodemailer produced is kept in Postgres and shown at /dev/mailbox.
 */
@Injectable()
export class Mailer {
  private readonly logger = new Logger('Mailer');
  private readonly transport: Transporter;

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly mailbox: MailboxRepository,
  ) {
    this.transport =
      config.MAIL_TRANSPORT === 'smtp'
        ? nodemailer.createTransport(config.SMTP_URL!)
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async send(mail: OutgoingMail): Promise<void> {
    const info = await this.transport.sendMail({ from: this.config.MAIL_FROM, ...mail });
    if (this.config.MAIL_TRANSPORT === 'mailbox') {
      const raw = Buffer.isBuffer(info.message) ? info.message.toString('utf8') : String(info.message);
      await this.mailbox.store({ ...mail, from: this.config.MAIL_FROM, raw });
    }
    // The subject only: bodies carry one-time links.
    this.logger.log(`mail "${mail.subject}" sent`);
  }
}
