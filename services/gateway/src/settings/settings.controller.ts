import { Controller, Get, HttpCode, Post, Put, Req, Res } from '@nestjs/common';
import { RpcClient, parseMessage } from '@vigil/platform';
import {
  subjects,
  updateNotificationsRequestSchema,
  updateProfileRequestSchema,
  type AccountSummary,
  type Client,
  type ClientWithKey,
  type NotificationSettings,
} from '@vigil/proto';
import type { Request, Response } from 'express';
import { bearerToken, bodyOf } from '../auth/caller.js';

/** /api/settings/*: a client's own users; the client is always the caller's, taken from the session. */
@Controller('api/settings')
export class SettingsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('profile')
  profile(@Req() req: Request): Promise<Client> {
    return this.rpc.request(subjects.clients.settings.getProfile, { accessToken: bearerToken(req) });
  }

  @Put('profile')
  updateProfile(@Req() req: Request): Promise<Client> {
    return this.rpc.request(subjects.clients.settings.updateProfile, parseMessage(updateProfileRequestSchema, { ...bodyOf(req), accessToken: bearerToken(req) }, 'profile'));
  }

  /** Answers the new key once; the old one stops working at once. */
  @Post('regenerate-api-key')
  @HttpCode(200)
  regenerate(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<ClientWithKey> {
    res.setHeader('cache-control', 'no-store');
    return this.rpc.request(subjects.clients.settings.regenerateKey, { accessToken: bearerToken(req) });
  }

  @Get('notification-settings')
  notifications(@Req() req: Request): Promise<NotificationSettings> {
    return this.rpc.request(subjects.clients.settings.getNotifications, { accessToken: bearerToken(req) });
  }

  @Put('notification-settings')
  updateNotifications(@Req() req: Request): Promise<NotificationSettings> {
    return this.rpc.request(
      subjects.clients.settings.updateNotifications,
      parseMessage(updateNotificationsRequestSchema, { ...bodyOf(req), accessToken: bearerToken(req) }, 'notification settings'),
    );
  }

  @Get('account-summary')
  accountSummary(@Req() req: Request): Promise<AccountSummary> {
    return this.rpc.request(subjects.clients.settings.accountSummary, { accessToken: bearerToken(req) });
  }
}
