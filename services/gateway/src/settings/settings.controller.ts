import { Controller, Get, HttpCode, Post, Put, Res } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import { contracts, type ParsedRequestOf } from '@vigil/proto';
import type { Response } from 'express';
import { RequiresMemberRole } from '../credentials/credentials.js';
import { AccessToken, ZodRequest } from '../http/route-params.js';
import { Answers } from '../http/answers.js';

const on = contracts.clients.settings;

/** /api/settings/*: a client's own users; the client is always the caller's, taken from the session. */
@Controller('api/settings')
export class SettingsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('profile')
  @Answers(on.getProfile, { summary: "The client's profile" })
  profile(@AccessToken() accessToken: string) {
    return this.rpc.request(on.getProfile, { accessToken });
  }

  /** The organisation's name and contact address, where key and billing mail goes. */
  @Put('profile')
  @Answers(on.updateProfile, { summary: "Change the client's profile" })
  @RequiresMemberRole('owner')
  updateProfile(
    @ZodRequest(on.updateProfile.request, 'profile', { accessToken: true })
    request: ParsedRequestOf<typeof on.updateProfile>,
  ) {
    return this.rpc.request(on.updateProfile, request);
  }

  /** Answers the new key once; the old one stops working at once. */
  @Post('regenerate-api-key')
  @Answers(on.regenerateKey, { summary: 'Regenerate the API key' })
  @HttpCode(200)
  @RequiresMemberRole('owner')
  regenerate(@AccessToken() accessToken: string, @Res({ passthrough: true }) res: Response) {
    res.setHeader('cache-control', 'no-store');
    return this.rpc.request(on.regenerateKey, { accessToken });
  }

  @Get('notification-settings')
  @Answers(on.getNotifications, { summary: 'Notification settings' })
  notifications(@AccessToken() accessToken: string) {
    return this.rpc.request(on.getNotifications, { accessToken });
  }

  @Put('notification-settings')
  @Answers(on.updateNotifications, { summary: 'Change notification settings' })
  @RequiresMemberRole('supervisor')
  updateNotifications(
    @ZodRequest(on.updateNotifications.request, 'notification settings', { accessToken: true })
    request: ParsedRequestOf<typeof on.updateNotifications>,
  ) {
    return this.rpc.request(on.updateNotifications, request);
  }

  @Get('account-summary')
  @Answers(on.accountSummary, { summary: 'Account summary' })
  accountSummary(@AccessToken() accessToken: string) {
    return this.rpc.request(on.accountSummary, { accessToken });
  }
}
