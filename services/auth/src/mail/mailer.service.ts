import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { MailTransport, type OutgoingMail } from '@vigil/platform';
import { AUTH_CONFIG, type AuthConfig } from '../env.js';
import { MailboxRepository } from './mailbox.repository.js';

export type { OutgoingMail } from '@vigil/platform';

/**
 * Auth's mail goes through the shared MailTransport: over SMTP when SMTP_URL is set; with
 * MAIL_TRANSPORT=mailbox (the default for `npm start` and tests) the exact MIME message is also
 * kept in Postgres and shown at /dev/mailbox.
 */
@Injectable()
export class Mailer implements OnApplicationShutdown {
  private readonly logger = new Logger('Mailer');
  private readonly transport: MailTransport;

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly mailbox: MailboxRepository,
  ) {
    this.transport = new MailTransport({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM });
  }

  async send(mail: OutgoingMail): Promise<void> {
    const { raw } = await this.transport.send(mail);
    if (this.config.MAIL_TRANSPORT === 'mailbox') {
      await this.mailbox.store({ ...mail, from: this.config.MAIL_FROM, raw });
    }
    // The subject only: bodies carry one-time links.
    this.logger.log(`mail "${mail.subject}" sent`);
  }

  onApplicationShutdown(): void {
    this.transport.close();
  }
}
