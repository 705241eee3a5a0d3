import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { RpcClient, parseMessage } from '@vigil/platform';
import { refreshRequestSchema, subjects, type RefreshResponse } from '@vigil/proto';
import type { Request } from 'express';
import { bodyOf } from '../auth/caller.js';
import { Credentials } from '../credentials/credentials.js';
import { AdminActions } from './admin-actions.publisher.js';

/** A fetch of every official list can take minutes. */
const REFRESH_TIMEOUT_MS = 10 * 60_000;

/** Admin: refresh some or all list sources now ({sources?, force?}); recorded as an admin action. */
@Controller('api/client/admin')
export class ListsAdminController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly actions: AdminActions,
  ) {}

  @Post('lists/refresh')
  @HttpCode(200)
  @Credentials('admin')
  async refresh(@Req() req: Request): Promise<RefreshResponse> {
    const request = parseMessage(refreshRequestSchema, bodyOf(req), 'refresh request');
    const reply = await this.rpc.request<RefreshResponse>(subjects.screening.refresh, request, {
      timeoutMs: REFRESH_TIMEOUT_MS,
    });
    await this.actions.record(
      'lists.refreshed',
      req,
      { clientId: null, clientName: null },
      { sources: request.sources ?? 'all', force: request.force, results: reply.results },
    );
    return reply;
  }
}
