import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@vigil/platform';
import type {
  CreateWebhookReply,
  MonitoringActor,
  MonitoringCaller,
  TestWebhookReply,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEventType,
} from '@vigil/proto';
import { randomBytes } from 'node:crypto';
import { ClientChangesPublisher } from '../client-changes/client-changes.publisher.js';
import { MONITORING_CONFIG } from '../config.token.js';
import type { MonitoringConfig } from '../env.js';
import { WebhookSecrets } from './webhook-secrets.js';
import { WebhookSender, verdictOf } from './webhook-sender.js';
import { targetProblem } from './webhook-targets.js';
import { WebhooksRepository } from './webhooks.repository.js';

/** §9: webhooks are for the small tier and up. */
const WEBHOOK_TIERS: ReadonlySet<MonitoringCaller['tier']> = new Set(['small', 'medium', 'large']);

const notFound = (id: string) => new DomainError('NOT_FOUND', `No webhook endpoint ${id}.`);

/** A client's webhook endpoints and their delivery log. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly repository: WebhooksRepository,
    private readonly secrets: WebhookSecrets,
    private readonly sender: WebhookSender,
    private readonly changes: ClientChangesPublisher,
    @Inject(MONITORING_CONFIG) private readonly config: MonitoringConfig,
  ) {}

  async create(
    caller: MonitoringCaller,
    actor: MonitoringActor,
    request: { url: string; event_types: WebhookEventType[]; description?: string | undefined },
  ): Promise<CreateWebhookReply> {
    this.entitled(caller);
    const problem = await targetProblem(request.url, this.config.WEBHOOK_ALLOW_LOOPBACK);
    if (problem) {
      throw new DomainError('VALIDATION_FAILED', `The webhook URL ${problem}.`, [{ pointer: '/url', detail: problem }]);
    }
    const secret = newSecret();
    const webhook = await this.repository.create(caller.clientId, {
      url: request.url,
      eventTypes: [...new Set(request.event_types)],
      description: request.description || null,
      secret: this.secrets.seal(secret),
    });
    // The endpoint as listed, never its secret: the audit trail must not hold a signing key.
    await this.changes.changed({
      change: 'webhook.registered',
      clientId: caller.clientId,
      actor,
      details: { webhook_id: webhook.id, url: webhook.url, event_types: webhook.event_types },
    });
    return { webhook, secret };
  }

  async list(caller: MonitoringCaller): Promise<{ webhooks: WebhookEndpoint[] }> {
    return { webhooks: await this.repository.list(caller.clientId) };
  }

  async delete(caller: MonitoringCaller, actor: MonitoringActor, id: string): Promise<{ id: string; deleted: true }> {
    const deleted = await this.repository.delete(caller.clientId, id);
    if (!deleted) throw notFound(id);
    await this.changes.changed({
      change: 'webhook.deleted',
      clientId: caller.clientId,
      actor,
      details: { webhook_id: id, url: deleted.url, event_types: deleted.event_types },
    });
    return { id, deleted: true };
  }

  /**
   * Replaces an endpoint's signing secret (a leaked one must stop verifying at once: no overlap).
   * Deliveries not yet sent are signed when sent, so they carry the new secret's signature.
   */
  async rotateSecret(caller: MonitoringCaller, actor: MonitoringActor, id: string): Promise<CreateWebhookReply> {
    this.entitled(caller);
    const secret = newSecret();
    const webhook = await this.repository.replaceSecret(caller.clientId, id, this.secrets.seal(secret));
    if (!webhook) throw notFound(id);
    await this.changes.changed({
      change: 'webhook.secret_rotated',
      clientId: caller.clientId,
      actor,
      details: { webhook_id: webhook.id, url: webhook.url },
    });
    return { webhook, secret };
  }

  async deliveries(
    caller: MonitoringCaller,
    id: string,
    page: { limit: number; offset: number },
  ): Promise<{ deliveries: WebhookDelivery[] }> {
    if (!(await this.repository.exists(caller.clientId, id))) throw notFound(id);
    return { deliveries: await this.repository.deliveries(caller.clientId, id, page) };
  }

  /**
   * Sends a signed test event to one of the client's endpoints now, once (no retries: whoever asked
   * is watching), and answers its delivery as the log records it. A 410 disables the endpoint, as
   * for any delivery.
   */
  async test(caller: MonitoringCaller, id: string): Promise<TestWebhookReply> {
    this.entitled(caller);
    const delivery = await this.repository.enqueueTest(caller.clientId, id, this.config.WEBHOOK_TIMEOUT_MS * 3);
    if (!delivery) throw notFound(id);
    const attempt = await this.sender.send(delivery);
    const verdict = verdictOf(attempt);
    const disabled = await this.repository.recordAttempt(delivery, attempt, {
      kind: verdict === 'delivered' ? 'delivered' : verdict === 'gone' ? 'gone' : 'failed',
    });
    await this.changes.webhookDisabled(caller.clientId, disabled);
    return { delivery: (await this.repository.delivery(caller.clientId, id, delivery.id))! };
  }

  private entitled(caller: MonitoringCaller) {
    if (!WEBHOOK_TIERS.has(caller.tier)) {
      throw new DomainError('FORBIDDEN', 'Webhook notifications come with the small plan and up; upgrade to use them.');
    }
  }
}

/** A Standard Webhooks secret: whsec_ + base64 of 24 random bytes, shown in one reply only. */
function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}
