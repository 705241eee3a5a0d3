import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import {
  type AccountSummary,
  type Client,
  type ClientWithKey,
  type NotificationSettings,
  contracts,
  type ParsedRequestOf,
} from '@vigil/proto';
import { SessionsService } from '../sessions/sessions.service.js';
import { SettingsService } from './settings.service.js';

@Controller()
export class SettingsHandler {
  constructor(
    private readonly settings: SettingsService,
    private readonly sessions: SessionsService,
  ) {}

  @Handles(contracts.clients.settings.getProfile)
  async profile(request: ParsedRequestOf<typeof contracts.clients.settings.getProfile>): Promise<Client> {
    return this.settings.profile(await this.sessions.authenticate(request.accessToken));
  }

  @Handles(contracts.clients.settings.updateProfile, 'profile')
  async updateProfile(request: ParsedRequestOf<typeof contracts.clients.settings.updateProfile>): Promise<Client> {
    return this.settings.updateProfile(await this.sessions.authenticate(request.accessToken), request);
  }

  @Handles(contracts.clients.settings.regenerateKey)
  async regenerateKey(
    request: ParsedRequestOf<typeof contracts.clients.settings.regenerateKey>,
  ): Promise<ClientWithKey> {
    return this.settings.regenerateKey(await this.sessions.authenticate(request.accessToken));
  }

  @Handles(contracts.clients.settings.getNotifications)
  async notifications(
    request: ParsedRequestOf<typeof contracts.clients.settings.getNotifications>,
  ): Promise<NotificationSettings> {
    return this.settings.notifications(await this.sessions.authenticate(request.accessToken));
  }

  @Handles(contracts.clients.settings.updateNotifications, 'notification settings')
  async updateNotifications(
    request: ParsedRequestOf<typeof contracts.clients.settings.updateNotifications>,
  ): Promise<NotificationSettings> {
    return this.settings.updateNotifications(await this.sessions.authenticate(request.accessToken), request);
  }

  @Handles(contracts.clients.settings.accountSummary)
  async accountSummary(
    request: ParsedRequestOf<typeof contracts.clients.settings.accountSummary>,
  ): Promise<AccountSummary> {
    return this.settings.accountSummary(await this.sessions.authenticate(request.accessToken));
  }
}
