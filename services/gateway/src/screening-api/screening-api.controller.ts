import { Controller, Get, HttpCode, Param, Post, Query, Req, UseInterceptors } from '@nestjs/common';
import { DomainError, parseMessage } from '@vigil/platform';
import {
  INT4_MAX,
  PLANS,
  apiBulkScreenRequestSchema,
  apiScreenRequestSchema,
  type ApiStatusResponse,
  type BulkJobResponse,
  type BulkScreenResponse,
  type ListsResponse,
  type Plan,
  type ScreenResponse,
} from '@vigil/proto';
import type { Request } from 'express';
import { z } from 'zod';
import { BulkJobs, JOB_PAGE_MAX } from '../bulk-jobs/bulk-jobs.service.js';
import { Credentials, callerOf } from '../credentials/credentials.js';
import { IdempotencyInterceptor } from '../idempotency/idempotency.interceptor.js';
import { Quotas } from '../quotas/quotas.service.js';
import { ScreeningApi } from './screening-api.service.js';

const jobQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).max(INT4_MAX).default(0),
  limit: z.coerce.number().int().min(1).max(JOB_PAGE_MAX).default(100),
  format: z.enum(['json', 'csv']).default('json'),
});

export const bodyOf = (req: Request): unknown => req.body ?? {};
export const clientOf = (req: Request) => {
  const client = callerOf(req).client;
  if (!client) throw new DomainError('INVALID_API_KEY', 'This request needs an x-api-key header.');
  return client;
};

/** Answers a bulk request: 200 with results, or 202 with the job to poll. */
export function bulkReply(
  outcome: { sync: BulkScreenResponse } | { job: { jobId: string; statusUrl: string } },
): BulkScreenResponse | Response {
  if ('sync' in outcome) return outcome.sync;
  return new Response(JSON.stringify(outcome.job), {
    status: 202,
    headers: { 'content-type': 'application/json; charset=utf-8', location: outcome.job.statusUrl },
  });
}

/** The public API v1 banks integrate with: `x-api-key` on every route. */
@Controller('api/v1')
export class ScreeningApiController {
  constructor(
    private readonly screening: ScreeningApi,
    private readonly jobs: BulkJobs,
    private readonly quotas: Quotas,
  ) {}

  @Post('screen')
  @HttpCode(200)
  @Credentials('api-key')
  @UseInterceptors(IdempotencyInterceptor)
  screen(@Req() req: Request): Promise<ScreenResponse> {
    return this.screening.screen(clientOf(req), parseMessage(apiScreenRequestSchema, bodyOf(req), 'screening request'));
  }

  @Post('bulk-screen')
  @HttpCode(200)
  @Credentials('api-key')
  @UseInterceptors(IdempotencyInterceptor)
  async bulkScreen(@Req() req: Request): Promise<BulkScreenResponse | Response> {
    const body = parseMessage(apiBulkScreenRequestSchema, bodyOf(req), 'bulk screening request');
    return bulkReply(await this.screening.bulk(clientOf(req), body.names, body.limit));
  }

  @Get('jobs/:id')
  @Credentials('api-key')
  async job(
    @Req() req: Request,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<BulkJobResponse | Response> {
    const { offset, limit, format } = parseMessage(jobQuerySchema, query, 'query');
    const clientId = clientOf(req).clientId;
    if (format === 'json') return this.jobs.get(clientId, id, offset, limit);
    await this.jobs.owned(clientId, id);
    const csv = this.jobs.csv(clientId, id);
    return new Response(ReadableStream.from(csv).pipeThrough(new TextEncoderStream()), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="bulk-job-${id}.csv"`,
      },
    });
  }

  /** The list catalogue, with the key like every v1 route; the public site reads GET /api/lists. */
  @Get('lists')
  @Credentials('api-key')
  lists(): Promise<ListsResponse> {
    return this.screening.lists();
  }

  @Get('status')
  @Credentials('api-key')
  status(@Req() req: Request): Promise<ApiStatusResponse> {
    return this.quotas.status(clientOf(req));
  }

  /** The plan catalogue (tiers, prices, quotas, rate limits, feeds) for the web apps. */
  @Get('plans')
  @Credentials('public')
  plans(): { plans: readonly Plan[] } {
    return { plans: PLANS };
  }
}
