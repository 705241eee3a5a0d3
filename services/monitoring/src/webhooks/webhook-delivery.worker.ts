import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { MONITORING_CONFIG } from '../config.token.js';
import type { MonitoringConfig } from '../env.js';
import { postToTarget, resolveTarget } from './webhook-targets.js';
import { WebhookSecrets } from './webhook-secrets.js';
import { WebhooksRepository, type ClaimedDelivery } from './webhooks.repository.js';

const BATCH = 50;
const MAX_BACKOFF_MS = 6 * 60 * 60 * 1000;

/**
 * Sends queued webhook deliveries, signed per Standard Webhooks (`webhook-id` = the delivery id,
 * `webhook-timestamp`, `webhook-signature` v1 HMAC-SHA256 with the endpoint's secret, through the
 * `standardwebhooks` package). 2xx: delivered. 410: the endpoint is disabled. Anything else (or no
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
    private readonly secrets: WebhookSecrets,
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
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    // Resolved once: the address checked is the address connected to.
    const checked = await resolveTarget(delivery.url, this.config.WEBHOOK_ALLOW_LOOPBACK);
    if ('problem' in checked) error = `refused: the URL ${checked.problem}`;
    else {
      try {
        const timestamp = new Date();
        const signature = new Webhook(this.secrets.open(delivery.secret)).sign(
          delivery.id,
          timestamp,
          delivery.payload,
        );
        statusCode = await postToTarget(checked.target, {
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Vigil-Webhooks/1',
            'webhook-id': delivery.id,
            'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
            'webhook-signature': signature,
          },
          body: delivery.payload,
          timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
        });
      } catch (e) {
        error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      }
    }
    const attempt = { statusCode, error, durationMs: Math.round(performance.now() - started) };
    const number = delivery.attemptCount + 1;
    if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
      this.delivered++;
      return this.repository.recordAttempt(delivery, attempt, { kind: 'delivered' });
    }
    if (statusCode === 410) return this.repository.recordAttempt(delivery, attempt, { kind: 'gone' });
    if (number >= this.config.WEBHOOK_MAX_ATTEMPTS)
      return this.repository.recordAttempt(delivery, attempt, { kind: 'failed' });
    const backoff = Math.min(MAX_BACKOFF_MS, this.config.WEBHOOK_RETRY_BASE_MS * 2 ** (number - 1));
    return this.repository.recordAttempt(delivery, attempt, { kind: 'retry', retryAt: new Date(Date.now() + backoff) });
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
