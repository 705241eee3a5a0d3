import { Injectable } from '@nestjs/common';
import { Database, DomainError, type Queryable } from '@vigil/platform';
import {
  CLIENT_NOT_FOUND_BY_KEY,
  DEFAULT_THRESHOLDS,
  TIER_LIMITS,
  calendarMonthAt,
  periodAt,
  thresholdProblems,
  type ApiKeyStatus,
  type Client,
  type ClientWithKey,
  type CreateClientRequest,
  type NotificationSettings,
  type ProvisionClientReply,
  type ProvisionClientRequest,
  type ResolvedKey,
  type ThresholdConfig,
  type UpdateSubscriptionRequest,
} from '@vigil/proto';
import { newApiKey, sha256 } from '../crypto/secrets.js';
import { EventsPublisher } from '../events/events.publisher.js';
import { SettingsRepository } from '../settings/settings.repository.js';
import { UsersRepository } from '../users/users.repository.js';
import { ApiKeysRepository, type KeyOwner, type RevokedKey } from './api-keys.repository.js';
import { ClientsRepository } from './clients.repository.js';

@Injectable()
export class ClientsService {
  constructor(
    private readonly db: Database,
    private readonly clients: ClientsRepository,
    private readonly keys: ApiKeysRepository,
    private readonly users: UsersRepository,
    private readonly events: EventsPublisher,
    private readonly settings: SettingsRepository,
  ) {}

  list(): Promise<Client[]> {
    return this.clients.list();
  }

  async get(clientId: string): Promise<Client> {
    const client = await this.clients.get(clientId);
    if (!client) throw new DomainError('NOT_FOUND', 'Client not found.');
    return client;
  }

  /** billing: whether to e-mail this client a quota warning or a payment reminder. */
  async notificationSettings(clientId: string): Promise<NotificationSettings> {
    await this.assertExists(clientId);
    return this.settings.notifications(clientId);
  }

  /** Creates a client and its first key; the key is in this answer and nowhere else, ever. */
  async create(
    request: Pick<CreateClientRequest, 'clientName' | 'tier' | 'contactEmail' | 'subscriptionStatus'>,
  ): Promise<ClientWithKey> {
    const apiKey = newApiKey();
    const clientId = await this.db.transaction(async (tx) => {
      const id = await this.clients.create(
        {
          clientName: request.clientName,
          contactEmail: request.contactEmail ?? null,
          tier: request.tier,
          subscriptionStatus: request.subscriptionStatus,
          quotaMonth: TIER_LIMITS[request.tier].monthlyQuota,
        },
        tx,
      );
      if (!id) throw new DomainError('CONFLICT', 'A client with this contact email already exists.');
      await this.keys.insert(id, apiKey.hash, apiKey.prefix, tx);
      if (request.contactEmail) await this.users.attachByEmail(request.contactEmail, id, tx);
      return id;
    });
    return { ...(await this.get(clientId)), api_key: apiKey.key };
  }

  /** billing, after checkout: one client per contact email, however often it is retried. */
  async provision(request: ProvisionClientRequest): Promise<ProvisionClientReply> {
    const existing = await this.clients.findByContactEmail(request.contactEmail);
    if (existing) {
      if (request.userId) await this.users.setClient(request.userId, existing.id);
      return { client: existing, created: false };
    }
    try {
      const created = await this.create({ ...request, contactEmail: request.contactEmail });
      if (request.userId) await this.users.setClient(request.userId, created.id);
      const { api_key, ...client } = created;
      return { client, api_key, created: true };
    } catch (error) {
      // A concurrent provision for the same email won the unique index.
      if (error instanceof DomainError && error.code === 'CONFLICT') return this.provision(request);
      throw error;
    }
  }

  async delete(clientId: string): Promise<void> {
    const revoked = await this.db.transaction(async (tx) => {
      const keys = await this.keys.revokeActive(clientId, 'client_deleted', tx);
      if (!(await this.clients.delete(clientId, tx))) throw new DomainError('NOT_FOUND', 'Client not found.');
      return keys;
    });
    await this.announce(revoked, 'client_deleted');
  }

  async findByKey(apiKey: string): Promise<Client> {
    const owner = await this.keys.ownerOf(sha256(apiKey.trim()));
    if (!owner) throw new DomainError('NOT_FOUND', CLIENT_NOT_FOUND_BY_KEY);
    return this.get(owner.client_id);
  }

  /** The old key stops working in the same transaction that makes the new one. */
  async regenerateKey(clientId: string): Promise<ClientWithKey> {
    const apiKey = newApiKey();
    const revoked = await this.db.transaction(async (tx) => {
      await this.assertExists(clientId, tx);
      const old = await this.keys.revokeActive(clientId, 'regenerated', tx);
      await this.keys.insert(clientId, apiKey.hash, apiKey.prefix, tx);
      return old;
    });
    await this.announce(revoked, 'regenerated');
    return { ...(await this.get(clientId)), api_key: apiKey.key };
  }

  async revokeKey(clientId: string): Promise<ApiKeyStatus> {
    await this.assertExists(clientId);
    await this.announce(await this.keys.revokeActive(clientId, 'revoked'), 'revoked');
    return this.keys.status(clientId);
  }

  async keyStatus(clientId: string): Promise<ApiKeyStatus> {
    await this.assertExists(clientId);
    return this.keys.status(clientId);
  }

  async updateThresholds(clientId: string, config: ThresholdConfig | null): Promise<Client> {
    if (config !== null) {
      const problems = thresholdProblems(config);
      if (problems.length > 0) {
        throw new DomainError(
          'VALIDATION_FAILED',
          `Validation Error: ${problems.map((p) => p.message).join(', ')}`,
          problems.map((p) => ({ pointer: `/threshold_config/${p.key}`, detail: p.message })),
        );
      }
    }
    if (!(await this.clients.setThresholds(clientId, config))) throw new DomainError('NOT_FOUND', 'Client not found.');
    return this.get(clientId);
  }

  async updateSubscription(request: UpdateSubscriptionRequest): Promise<Client> {
    const quotaMonth = request.quotaMonth ?? (request.tier ? TIER_LIMITS[request.tier].monthlyQuota : undefined);
    const found = await this.clients.setSubscription(request.clientId, {
      tier: request.tier,
      subscriptionStatus: request.subscriptionStatus,
      quotaMonth,
      usageMonth: request.usageMonth,
      usagePeriodStart: request.usagePeriodStart,
      period: request.period,
    });
    if (!found) throw new DomainError('NOT_FOUND', 'Client not found.');
    return this.get(request.clientId);
  }

  /** For the gateway's API-key guard: who holds this key, and what they may do. */
  async resolveKey(keyHash: string): Promise<ResolvedKey> {
    const owner = await this.keys.ownerOf(keyHash);
    if (!owner) throw new DomainError('INVALID_API_KEY', 'Invalid API key.');
    return this.resolved(owner);
  }

  /**
   * The gateway's dashboard routes, for a signed-in user of this client who sent no key: the same
   * answer as resolveKey, with the active key's id and prefix, or null for both when it has none.
   */
  async resolveClient(clientId: string): Promise<ResolvedKey> {
    const owner = await this.keys.clientOwner(clientId);
    if (!owner) throw new DomainError('NOT_FOUND', 'Client not found.');
    return this.resolved(owner);
  }

  private resolved(owner: KeyOwner): ResolvedKey {
    const limits = TIER_LIMITS[owner.tier];
    const now = new Date();
    const period =
      owner.period_start && owner.period_end
        ? periodAt({ start: owner.period_start, end: owner.period_end }, now)
        : calendarMonthAt(now);
    return {
      clientId: owner.client_id,
      clientName: owner.client_name,
      keyId: owner.key_id,
      keyPrefix: owner.prefix,
      tier: owner.tier,
      subscriptionStatus: owner.subscription_status,
      thresholdConfig: owner.threshold_config,
      thresholds: owner.threshold_config ?? { ...DEFAULT_THRESHOLDS },
      feeds: [...limits.feeds],
      quotaMonth: owner.quota_month,
      usageMonth: owner.usage_month,
      rateLimitPerMinute: limits.rateLimitPerMinute,
      periodStart: period.start.toISOString(),
      periodEnd: period.end.toISOString(),
    };
  }

  private async assertExists(clientId: string, q?: Queryable) {
    if (!(await this.clients.get(clientId, q))) throw new DomainError('NOT_FOUND', 'Client not found.');
  }

  private async announce(revoked: RevokedKey[], reason: 'regenerated' | 'revoked' | 'client_deleted') {
    for (const key of revoked) {
      await this.events.keyRevoked({
        clientId: key.client_id,
        keyId: key.id,
        keyHash: key.key_hash,
        keyPrefix: key.prefix,
        reason,
        revokedAt: key.revoked_at.toISOString(),
      });
    }
  }
}
