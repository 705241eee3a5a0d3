import { Inject, Injectable } from '@nestjs/common';
import { isSealed, openSecret, sealSecret } from '@vigil/platform';
import { MONITORING_CONFIG } from '../config.token.js';
import type { MonitoringConfig } from '../env.js';

/**
 * Authenticated with every sealed secret, so a sealed value opens only as a webhook secret of this
 * service (not if copied into another sealed column under the same key).
 */
export const WEBHOOK_SECRET_CONTEXT = 'monitoring.webhook_endpoints.secret';

/** Seals a webhook endpoint's signing secret under MONITORING_ENCRYPTION_KEY. */
export function sealWebhookSecret(key: Buffer, secret: string): string {
  return sealSecret(key, secret, WEBHOOK_SECRET_CONTEXT);
}

/**
 * Webhook signing secrets at rest: the deliverer must read them back to sign (Standard Webhooks
 * is HMAC with a shared secret), so they are sealed rather than hashed, and a database dump alone
 * does not let anyone forge deliveries. Rows from before sealing are sealed by the migration
 * SealWebhookSecrets1764200000000; one still plain (an older replica during a rollout) reads as is.
 */
@Injectable()
export class WebhookSecrets {
  private readonly key: Buffer;

  constructor(@Inject(MONITORING_CONFIG) config: Pick<MonitoringConfig, 'MONITORING_ENCRYPTION_KEY'>) {
    this.key = config.MONITORING_ENCRYPTION_KEY;
  }

  seal(secret: string): string {
    return sealWebhookSecret(this.key, secret);
  }

  open(stored: string): string {
    return isSealed(stored) ? openSecret(this.key, stored, WEBHOOK_SECRET_CONTEXT) : stored;
  }
}
