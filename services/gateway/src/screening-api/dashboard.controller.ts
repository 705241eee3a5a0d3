import { Controller, Get, HttpCode, Param, Post, Query, Req, UseInterceptors } from '@nestjs/common';
import { RpcClient, parseMessage } from '@vigil/platform';
import {
  apiBulkScreenRequestSchema,
  apiScreenRequestSchema,
  subjects,
  type ApiStatusResponse,
  type Client,
  type BulkJobResponse,
  type ResolvedKey,
  type BulkScreenResponse,
  type DatasetsResponse,
  type EntityDetails,
  type ScreenResponse,
  type SearchResponse,
} from '@vigil/proto';
import type { Request } from 'express';
import { z } from 'zod';
import { BulkJobs, JOB_PAGE_MAX } from '../bulk-jobs/bulk-jobs.service.js';
import { Credentials } from '../credentials/credentials.js';
import { CurrentClient, ZodParam, ZodQuery } from '../http/route-params.js';
import { IdempotencyInterceptor } from '../idempotency/idempotency.interceptor.js';
import { Quotas } from '../quotas/quotas.service.js';
import { bodyOf, bulkReply, clientOf } from './screening-api.controller.js';
import { ScreeningApi } from './screening-api.service.js';

const searchQuerySchema = z.object({ query: z.string(), limit: z.coerce.number().int().optional() });
const dashboardJobQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(JOB_PAGE_MAX).default(100),
  format: z.enum(['json', 'csv', 'json-file']).default('json'),
});
const datasetsQuerySchema = z.object({
  source: z.string(),
  format: z.enum(['json', 'csv']).optional(),
  cursor: z.string().optional(),
  limit: z.coerce.number().int().optional(),
});

/** The dashboard's screening calls, as the web app makes them: API key and session token of the same client. */
@Controller('api')
export class DashboardController {
  constructor(
    private readonly screening: ScreeningApi,
    private readonly quotas: Quotas,
    private readonly rpc: RpcClient,
    private readonly jobs: BulkJobs,
  ) {}

  /** The signed-in user's client profile; auth answers from the token, so it can only be the caller's own. */
  @Get('client')
  @Credentials('dashboard')
  client(@Req() req: Request): Promise<Client> {
    return this.rpc.request(subjects.clients.settings.getProfile, {
      accessToken: /^Bearer\s+(\S+)$/i.exec(req.header('authorization')!)![1],
    });
  }

  /** One list's entities as a CSV file (the dashboard's "Download"); `source` as in GET /api/v1/lists. */
  @Get('sanctions/bulk-download')
  @Credentials('dashboard')
  async bulkDownload(@Req() req: Request, @Query() query: Record<string, unknown>): Promise<Response> {
    const { source, cursor, limit } = parseMessage(datasetsQuerySchema, query, 'query');
    const page = await this.screening.datasets(clientOf(req), {
      source,
      format: 'csv',
      ...(cursor ? { cursor } : {}),
      ...(limit ? { limit } : {}),
    });
    return new Response(page.csv ?? '', {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${page.source.replace(/[^A-Za-z0-9_.-]/g, '_')}-v${page.version}.csv"`,
        ...(page.nextCursor ? { 'x-next-cursor': page.nextCursor } : {}),
      },
    });
  }

  /** The web app reads the top match's id, name, score, source_dataset, blocked, details and a message. */
  @Post('screen')
  @HttpCode(200)
  @Credentials('dashboard')
  @UseInterceptors(IdempotencyInterceptor)
  async screen(@Req() req: Request) {
    const response = await this.screening.screen(
      clientOf(req),
      parseMessage(apiScreenRequestSchema, bodyOf(req), 'screening request'),
    );
    return dashboardScreen(response);
  }

  /** Up to 1,000 names answer at once; more start a background job whose status URL is the dashboard's own. */
  @Post('sanctions/bulk-search')
  @HttpCode(200)
  @Credentials('dashboard')
  @UseInterceptors(IdempotencyInterceptor)
  async bulkSearch(@Req() req: Request): Promise<BulkScreenResponse | Response> {
    const body = parseMessage(apiBulkScreenRequestSchema, bodyOf(req), 'bulk screening request');
    const outcome = await this.screening.bulk(clientOf(req), body.names, body.limit);
    return bulkReply(
      'job' in outcome
        ? { job: { ...outcome.job, statusUrl: `/api/sanctions/bulk-jobs/${outcome.job.jobId}` } }
        : outcome,
    );
  }

  /**
   * A background bulk job of the signed-in user's client: progress and a page of results as JSON,
   * or every result as a download (`format=csv` or `format=json-file`), streamed by the server.
   */
  @Get('sanctions/bulk-jobs/:id')
  @Credentials('dashboard')
  async bulkJob(
    @CurrentClient() client: ResolvedKey,
    @ZodParam('id') id: string,
    @ZodQuery(dashboardJobQuerySchema) query: z.output<typeof dashboardJobQuerySchema>,
  ): Promise<BulkJobResponse | Response> {
    const { offset, limit, format } = query;
    const clientId = client.clientId;
    if (format === 'json') return this.jobs.get(clientId, id, offset, limit);
    await this.jobs.owned(clientId, id);
    const csv = format === 'csv';
    const body = csv ? this.jobs.csv(clientId, id) : this.jobs.json(clientId, id);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    return new Response(ReadableStream.from(body).pipeThrough(new TextEncoderStream()), {
      headers: {
        'content-type': csv ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
        'content-disposition': `attachment; filename="bulk-screening-results-${stamp}.${csv ? 'csv' : 'json'}"`,
      },
    });
  }

  @Get('sanctions/search')
  @Credentials('dashboard')
  search(@Req() req: Request, @Query() query: Record<string, unknown>): Promise<SearchResponse> {
    const parsed = parseMessage(searchQuerySchema, query, 'query');
    return this.screening.search(clientOf(req), parsed.query, parsed.limit);
  }

  @Get('sanctions/datasets')
  @Credentials('dashboard')
  datasets(@Req() req: Request, @Query() query: Record<string, unknown>): Promise<DatasetsResponse> {
    return this.screening.datasets(clientOf(req), parseMessage(datasetsQuerySchema, query, 'query'));
  }

  @Get('sanctions/entity/:id')
  @Credentials('dashboard')
  entity(@Req() req: Request, @Param('id') id: string): Promise<EntityDetails> {
    return this.screening.entity(clientOf(req), id);
  }

  @Get('status')
  @Credentials('dashboard')
  status(@Req() req: Request): Promise<ApiStatusResponse> {
    return this.quotas.status(clientOf(req));
  }
}

function dashboardScreen(response: ScreenResponse) {
  const top = response.results[0];
  return {
    ...response,
    id: top?.id ?? null,
    name: top?.name ?? null,
    score: response.topScore,
    source_dataset: top?.sourceDataset ?? null,
    blocked: response.blocked,
    details: top
      ? { programs: top.programs, matchedName: top.matchedName, label: top.label, explanation: top.explanation.text }
      : null,
    message: response.match ? `${response.label}: ${top?.name ?? ''}`.trim() : 'No match found',
  };
}
