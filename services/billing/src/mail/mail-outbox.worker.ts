import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { MailTransport } from '@vigil/platform';
import { BILLING_CONFIG, type BillingConfig } from '../env.js';
import { MailOutboxRepository, outboxMessageId } from './mail-outbox.repository.js';

/** Longer than any one send can take (MailTransport bounds its SMTP waits well below this). */
const LEASE_SECONDS = 300;
const BATCH = 20;
const MAX_BACKOFF_SECONDS = 3600;

/**
 * Drains billing's mail outbox over SMTP. Delivery is at least once: a sender that dies after the
 * relay accepted a mail but before marking it leaves the row claimed; when its lease ends the
 * mail is sent again, with the same Message-ID. Never more than that: SKIP LOCKED and the
 * attempt-fenced marks keep two live senders off one row.
 */
@Injectable()
export class MailOutboxWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MailOutboxWorker.name);
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<number> | undefined;

  constructor(
    @Inject(BILLING_CONFIG) private readonly config: BillingConfig,
    private readonly outbox: MailOutboxRepository,
    private readonly transport: MailTransport,
  ) {}

  onApplicationBootstrap() {
    if (!this.transport.sends) {
      this.logger.warn('SMTP_URL is not set: billing mail stays pending in mail_outbox until it is');
      return;
    }
    if (this.config.MAIL_OUTBOX_INTERVAL_MS === 0) return;
    this.timer = setInterval(
      () => void this.drain().catch((e) => this.logger.warn(`outbox: ${String(e)}`)),
      this.config.MAIL_OUTBOX_INTERVAL_MS,
    );
    this.timer.unref();
  }

  onApplicationShutdown() {
    clearInterval(this.timer);
    this.transport.close();
  }

  /** Sends every due mail; one drain at a time per process. Resolves to the number sent. */
  drain(): Promise<number> {
    this.draining ??= this.drainAll().finally(() => (this.draining = undefined));
    return this.draining;
  }

  private async drainAll(): Promise<number> {
    if (!this.transport.sends) return 0;
    let sent = 0;
    for (;;) {
      const batch = await this.outbox.claimDue(BATCH, LEASE_SECONDS);
      for (const mail of batch) {
        try {
          await this.transport.send({
            to: mail.to,
            subject: mail.subject,
            text: mail.body,
            messageId: outboxMessageId(mail.id),
          });
          if (await this.outbox.markSent(mail)) sent++;
        } catch (error) {
          const dead = mail.attempts >= this.config.MAIL_MAX_ATTEMPTS;
          const retryInSeconds = Math.min(
            MAX_BACKOFF_SECONDS,
            (this.config.MAIL_RETRY_BASE_MS / 1000) * 2 ** (mail.attempts - 1),
          );
          const reason = error instanceof Error ? error.message : String(error);
          await this.outbox.markFailed(mail, reason, { dead, retryInSeconds });
          // The subject only: the welcome mail's body carries an API key.
          this.logger.warn(`mail "${mail.subject}" attempt ${mail.attempts} failed (${reason})${dead ? ': dead' : ''}`);
        }
      }
      if (batch.length < BATCH) return sent;
    }
  }
}
