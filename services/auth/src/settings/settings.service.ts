import { Injectable } from '@nestjs/common';
import { DomainError } from '@vigil/platform';
import {
  memberRoleAtLeast,
  type AccountSummary,
  type Client,
  type ClientWithKey,
  type MemberRole,
  type NotificationSettings,
  type UpdateNotificationsRequest,
  type UpdateProfileRequest,
} from '@vigil/proto';
import { ApiKeysRepository } from '../clients/api-keys.repository.js';
import { ClientsRepository } from '../clients/clients.repository.js';
import { ClientsService } from '../clients/clients.service.js';
import { EventsPublisher } from '../events/events.publisher.js';
import { apiKeyMail } from '../mail/mail.templates.js';
import { Mailer } from '../mail/mailer.service.js';
import type { Principal } from '../sessions/sessions.service.js';
import { UsersRepository } from '../users/users.repository.js';
import { SettingsRepository } from './settings.repository.js';

/** A client's own users managing their organisation: the client always comes from the session. */
@Injectable()
export class SettingsService {
  constructor(
    private readonly clients: ClientsService,
    private readonly clientsRepository: ClientsRepository,
    private readonly keys: ApiKeysRepository,
    private readonly settings: SettingsRepository,
    private readonly users: UsersRepository,
    private readonly mailer: Mailer,
    private readonly events: EventsPublisher,
  ) {}

  profile(principal: Principal): Promise<Client> {
    return this.clients.get(this.clientOf(principal));
  }

  /** The organisation's name and contact address (where key and billing mail goes): owners only. */
  async updateProfile(principal: Principal, request: UpdateProfileRequest): Promise<Client> {
    const clientId = this.clientOf(principal, 'owner');
    const owner = await this.clientsRepository.findByContactEmail(request.contact_email);
    if (owner && owner.id !== clientId)
      throw new DomainError('CONFLICT', 'Another client already uses this contact email.');
    await this.clientsRepository.setProfile(clientId, request.client_name, request.contact_email);
    return this.clients.get(clientId);
  }

  async regenerateKey(principal: Principal): Promise<ClientWithKey> {
    const client = await this.clients.regenerateKey(this.clientOf(principal, 'owner'));
    // The prefix only: the raw key never reaches the trail.
    await this.events.clientChanged({
      change: 'key.rotated',
      clientId: client.id,
      actorId: principal.userId,
      actorEmail: principal.email,
      details: { key_prefix: client.api_key_prefix },
    });
    const notify = client.contact_email ?? principal.email;
    await this.mailer.send(apiKeyMail(notify, client.client_name, client.api_key_prefix ?? ''));
    return client;
  }

  notifications(principal: Principal): Promise<NotificationSettings> {
    return this.settings.notifications(this.clientOf(principal));
  }

  async updateNotifications(principal: Principal, request: UpdateNotificationsRequest): Promise<NotificationSettings> {
    const { accessToken: _token, ip: _ip, userAgent: _ua, ...flags } = request;
    const clientId = this.clientOf(principal, 'supervisor');
    const saved = await this.settings.saveNotifications(clientId, flags);
    await this.events.clientChanged({
      change: 'notifications.changed',
      clientId,
      actorId: principal.userId,
      actorEmail: principal.email,
      details: { changed: flags, now: saved },
    });
    return saved;
  }

  async accountSummary(principal: Principal): Promise<AccountSummary> {
    const clientId = this.clientOf(principal);
    const [client, user, apiKey, notificationSettings] = await Promise.all([
      this.clients.get(clientId),
      this.users.findById(principal.userId),
      this.keys.status(clientId),
      this.settings.notifications(clientId),
    ]);
    return {
      client,
      user: {
        id: user!.id,
        email: user!.email,
        full_name: user!.full_name,
        created_at: user!.created_at.toISOString(),
      },
      usage_percent: client.quota_month > 0 ? Math.round((client.usage_month / client.quota_month) * 100) : 0,
      api_key: apiKey,
      notification_settings: notificationSettings,
    };
  }

  /** The caller's client; with `minimum`, only if their live role in it is at least that. */
  private clientOf(principal: Principal, minimum: MemberRole = 'viewer'): string {
    if (!principal.clientId)
      throw new DomainError('NOT_FOUND', 'No client is linked to this account yet. Choose a plan to get started.');
    if (!memberRoleAtLeast(principal.memberRole, minimum)) {
      throw new DomainError(
        'ROLE_FORBIDDEN',
        `This action needs the ${minimum} role or higher; your role is ${principal.memberRole ?? 'none'}.`,
      );
    }
    return principal.clientId;
  }
}
