import nodemailer, { type Transporter } from 'nodemailer';
import { z } from 'zod';

/** One message as every service builds it; `messageId` lets a receiver spot a resend of the same mail. */
export type OutgoingMail = { to: string; subject: string; text: string; html?: string; messageId?: string };

/** What `MailTransport.send` did: the exact MIME message, and whether it went out over SMTP. */
export type SentMail = { raw: string; delivered: boolean };

/** The variables of every service that mails (each adds them to its own env schema). */
export const mailEnv = {
  /** Where mail goes (smtp:// or smtps://, credentials in the URL); unset: nothing leaves the service. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Vigil <no-reply@vigil.local>'),
};

/**
 * The one way a Vigil service sends mail. nodemailer builds the MIME message once (so a service
 * that keeps a copy, like auth's development mailbox, keeps exactly what was sent) and, with an
 * SMTP URL, sends that message as it is.
 */
export class MailTransport {
  private readonly builder: Transporter;
  private readonly smtp: Transporter | undefined;

  constructor(private readonly options: { smtpUrl?: string; from: string }) {
    this.builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    // Bounded waits: a sender holds its outbox row on a lease, and a hung relay must not outlast it.
    this.smtp = options.smtpUrl
      ? nodemailer.createTransport({
          url: options.smtpUrl,
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 30_000,
        })
      : undefined;
  }

  /** True when mail actually leaves (an SMTP URL is configured). */
  get sends(): boolean {
    return this.smtp !== undefined;
  }

  async send(mail: OutgoingMail): Promise<SentMail> {
    const built = await this.builder.sendMail({ from: this.options.from, ...mail });
    const raw = Buffer.isBuffer(built.message) ? built.message.toString('utf8') : String(built.message);
    if (!this.smtp) return { raw, delivered: false };
    await this.smtp.sendMail({ envelope: { from: this.options.from, to: [mail.to] }, raw });
    return { raw, delivered: true };
  }

  close(): void {
    this.smtp?.close();
  }
}
