import { Controller, HttpCode, Post } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import { contracts, refreshRequestSchema, type RefreshRequest, type RefreshResponse } from '@vigil/proto';
import type { z } from 'zod';
import { Credentials } from '../credentials/credentials.js';
import { ZodBody } from '../http/route-params.js';
import { AdminActions, CurrentActor, type AdminActor } from './admin-actions.publisher.js';
import { Answers } from '../http/answers.js';

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
  @Answers(contracts.screening.refresh, { summary: 'Reload the official lists now' })
  @HttpCode(200)
  @Credentials('admin')
  async refresh(
    @CurrentActor() actor: AdminActor,
    @ZodBody(refreshRequestSchema, 'refresh request') body: z.output<typeof refreshRequestSchema>,
  ): Promise<RefreshResponse> {
    const request: RefreshRequest = body;
    const reply = await this.rpc.request(contracts.screening.refresh, request, { timeoutMs: REFRESH_TIMEOUT_MS });
    await this.actions.record(
      'lists.refreshed',
      actor,
      { clientId: null, clientName: null },
      { sources: body.sources ?? 'all', force: body.force, results: reply.results },
    );
    return reply;
  }
}
