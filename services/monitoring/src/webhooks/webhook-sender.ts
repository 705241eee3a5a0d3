import { Inject, Injectable } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { MONITORING_CONFIG } from '../config.token.js';
import type { MonitoringConfig } from '../env.js';
import { postToTarget, resolveTarget } from './webhook-targets.js';
import { WebhookSecrets } from './webhook-secrets.js';
import type { ClaimedDelivery } from './webhooks.repository.js';

/** One attempt's outcome as the delivery log records it. */
export type SentAttempt = { statusCode: number | null; error: string | null; durationMs: number };

/** 2xx: delivered; 410: the endpoint is gone (disabled); anything else, or no answer: unsuccessful. */
export function verdictOf(attempt: SentAttempt): 'delivered' | 'gone' | 'unsuccessful' {
  const code = attempt.statusCode;
  if (code !== null && code >= 200 && code < 300) return 'delivered';
  return code === 410 ? 'gone' : 'unsuccessful';
}

/**
 * One signed POST of a delivery to its endpoint, per Standard Webhooks (`webhook-id` = the
 * delivery id, `webhook-timestamp`, `webhook-signature` v1 HMAC-SHA256 with the endpoint's secret,
 * through the `standardwebhooks` package): the one way a delivery is sent, whether the worker sends
 * it from the queue or a client asks for a test event. The target is checked again first (DNS may
 * have changed since registration) and the connection goes to the address checked.
 */
@Injectable()
export class WebhookSender {
  constructor(
    private readonly secrets: WebhookSecrets,
    @Inject(MONITORING_CONFIG) private readonly config: MonitoringConfig,
  ) {}

  async send(delivery: ClaimedDelivery): Promise<SentAttempt> {
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
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
    return { statusCode, error, durationMs: Math.round(performance.now() - started) };
  }
}
