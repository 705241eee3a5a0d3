import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { parseMessage } from '@vigil/platform';
import {
  settingsRequestSchema,
  subjects,
  updateNotificationsRequestSchema,
  updateProfileRequestSchema,
  type AccountSummary,
  type Client,
  type ClientWithKey,
  type NotificationSettings,
} from '@vigil/proto';
import { SessionsService } from '../sessions/sessions.service.js';
import { SettingsService } from './settings.service.js';

@Controller()
export class SettingsHandler {
  constructor(
    private readonly settings: SettingsService,
    private readonly sessions: SessionsService,
  ) {}

  @MessagePattern(subjects.clients.settings.getProfile)
  async profile(@Payload() data: unknown): Promise<Client> {
    return this.settings.profile(await this.sessions.authenticate(parseMessage(settingsRequestSchema, data).accessToken));
  }

  @MessagePattern(subjects.clients.settings.updateProfile)
  async updateProfile(@Payload() data: unknown): Promise<Client> {
    const request = parseMessage(updateProfileRequestSchema, data, 'profile');
    return this.settings.updateProfile(await this.sessions.authenticate(request.accessToken), request);
  }

  @MessagePattern(subjects.clients.settings.regenerateKey)
  async regenerateKey(@Payload() data: unknown): Promise<ClientWithKey> {
    return this.settings.regenerateKey(await this.sessions.authenticate(parseMessage(settingsRequestSchema, data).accessToken));
  }

  @MessagePattern(subjects.clients.settings.getNotifications)
  async notifications(@Payload() data: unknown): Promise<NotificationSettings> {
    return this.settings.notifications(await this.sessions.authenticate(parseMessage(settingsRequestSchema, data).accessToken));
  }

  @MessagePattern(subjects.clients.settings.updateNotifications)
  async updateNotifications(@Payload() data: unknown): Promise<NotificationSettings> {
    const request = parseMessage(updateNotificationsRequestSchema, data, 'notification settings');
    return this.settings.updateNotifications(await this.sessions.authenticate(request.accessToken), request);
  }

  @MessagePattern(subjects.clients.settings.accountSummary)
  async accountSummary(@Payload() data: unknown): Promise<AccountSummary> {
    return this.settings.accountSummary(await this.sessions.authenticate(parseMessage(settingsRequestSchema, data).accessToken));
  }
}
