import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ClientChangesPublisher } from '../client-changes/client-changes.publisher.js';
import { MONITORING_CONFIG } from '../config.token.js';
import type { MonitoringConfig } from '../env.js';
import { WebhookSender, verdictOf } from './webhook-sender.js';
import { WebhooksRepository, type ClaimedDelivery } from './webhooks.repository.js';

const BATCH = 50;
const MAX_BACKOFF_MS = 6 * 60 * 60 * 1000;

/**
 * Sends queued webhook deliveries (signed by WebhookSender). 2xx: delivered. 410: the endpoint is disabled. Anything else (or no
 * answer): retried after base × 2^(attempt−1), until WEBHOOK_MAX_ATTEMPTS. Every attempt is
 * recorded. The queue is in Postgres, claimed with SKIP LOCKED and a lease, so restarts and
 * replicas neither lose nor double-send a delivery while its lease holds.
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDeliveryWorker.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  delivered = 0;

  constructor(
    private readonly repository: WebhooksRepository,
    private readonly sender: WebhookSender,
    private readonly changes: ClientChangesPublisher,
    @Inject(MONITORING_CONFIG) private readonly config: MonitoringConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.WEBHOOK_WORKER) this.schedule(0);
  }

  private schedule(delayMs: number) {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.pass(), delayMs);
  }

  private async pass(): Promise<void> {
    if (this.running || this.stopped) return;
    let full = false;
    this.running = (async () => {
      try {
        const lease = this.config.WEBHOOK_TIMEOUT_MS * 3;
        const claimed = await this.repository.claimDue(BATCH, lease);
        full = claimed.length === BATCH;
        await Promise.all(claimed.map((d) => this.deliver(d)));
      } catch (error) {
        this.logger.warn(`webhook pass failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    })();
    await this.running;
    this.running = undefined;
    this.schedule(full ? 0 : this.config.WEBHOOK_POLL_MS);
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const attempt = await this.sender.send(delivery);
    const verdict = verdictOf(attempt);
    const number = delivery.attemptCount + 1;
    if (verdict === 'delivered') {
      this.delivered++;
      await this.repository.recordAttempt(delivery, attempt, { kind: 'delivered' });
      return;
    }
    if (verdict === 'gone') {
      const disabled = await this.repository.recordAttempt(delivery, attempt, { kind: 'gone' });
      return this.changes.webhookDisabled(delivery.clientId, disabled);
    }
    if (number >= this.config.WEBHOOK_MAX_ATTEMPTS) {
      await this.repository.recordAttempt(delivery, attempt, { kind: 'failed' });
      return;
    }
    const backoff = Math.min(MAX_BACKOFF_MS, this.config.WEBHOOK_RETRY_BASE_MS * 2 ** (number - 1));
    await this.repository.recordAttempt(delivery, attempt, { kind: 'retry', retryAt: new Date(Date.now() + backoff) });
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
