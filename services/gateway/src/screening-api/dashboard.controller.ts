import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import {
  apiBulkScreenRequestSchema,
  apiScreenRequestSchema,
  contracts,
  type ApiBulkScreenRequest,
  type ApiScreenRequest,
  type ApiStatusResponse,
  type BulkJobResponse,
  type BulkScreenResponse,
  type DatasetsResponse,
  type EntityDetails,
  type RequestActor,
  type ResolvedKey,
  type ScreenResponse,
  type SearchResponse,
  dashboardScreenResponseSchema,
  bulkScreenResponseSchema,
  bulkJobAcceptedSchema,
  bulkJobResponseSchema,
  apiStatusResponseSchema,
} from '@vigil/proto';
import { z } from 'zod';
import { BulkJobs, JOB_PAGE_MAX } from '../bulk-jobs/bulk-jobs.service.js';
import { AnyPlan, Credentials, RequiresMemberRole } from '../credentials/credentials.js';
import { AccessToken, CurrentClient, ScreeningActor, ZodBody, ZodParam, ZodQuery } from '../http/route-params.js';
import { Idempotent } from '../idempotency/idempotency.interceptor.js';
import { OperationId } from '../idempotency/operation-id.js';
import { Quotas } from '../quotas/quotas.service.js';
import { bulkReply } from './screening-api.controller.js';
import { ScreeningApi } from './screening-api.service.js';
import { Answers } from '../http/answers.js';

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
  @Answers(contracts.clients.settings.getProfile, { summary: "The signed-in user's client profile" })
  @Credentials('dashboard')
  @AnyPlan()
  client(@AccessToken() accessToken: string) {
    return this.rpc.request(contracts.clients.settings.getProfile, { accessToken });
  }

  /** One list's entities as a CSV file (the dashboard's "Download"); `source` as in GET /api/v1/lists. */
  @Get('sanctions/bulk-download')
  @Answers({ mediaType: 'text/csv' }, { summary: "One list's entities as CSV" })
  @Credentials('dashboard')
  async bulkDownload(
    @CurrentClient() client: ResolvedKey,
    @ZodQuery(datasetsQuerySchema) { source, cursor, limit }: z.output<typeof datasetsQuerySchema>,
  ): Promise<Response> {
    const page = await this.screening.datasets(client, {
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
  @Answers(dashboardScreenResponseSchema, { summary: 'Screen one name (dashboard)' })
  @HttpCode(200)
  @Credentials('dashboard')
  @RequiresMemberRole('analyst')
  @Idempotent()
  async screen(
    @CurrentClient() client: ResolvedKey,
    @ScreeningActor() actor: RequestActor,
    @ZodBody(apiScreenRequestSchema, 'screening request') request: ApiScreenRequest,
    @OperationId() operationId: string | undefined,
  ) {
    return dashboardScreen(await this.screening.screen(client, actor, request, undefined, operationId));
  }

  /** Up to 1,000 names answer at once; more start a background job whose status URL is the dashboard's own. */
  @Post('sanctions/bulk-search')
  @Answers(bulkScreenResponseSchema, {
    summary: 'Screen many names (dashboard)',
    description: 'Up to 1,000 names: the results.',
  })
  @Answers(bulkJobAcceptedSchema, { status: 202, description: 'More than 1,000 names: the job to poll (Location).' })
  @HttpCode(200)
  @Credentials('dashboard')
  @RequiresMemberRole('analyst')
  @Idempotent()
  async bulkSearch(
    @CurrentClient() client: ResolvedKey,
    @ScreeningActor() actor: RequestActor,
    @ZodBody(apiBulkScreenRequestSchema, 'bulk screening request') body: ApiBulkScreenRequest,
  ): Promise<BulkScreenResponse | Response> {
    const outcome = await this.screening.bulk(client, actor, body);
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
  @Answers(bulkJobResponseSchema, { summary: 'A bulk job: progress and results', also: [{ mediaType: 'text/csv' }] })
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
  @Answers(contracts.screening.search, { summary: 'Search list entities by name' })
  @Credentials('dashboard')
  search(
    @CurrentClient() client: ResolvedKey,
    @ZodQuery(searchQuerySchema) query: z.output<typeof searchQuerySchema>,
  ): Promise<SearchResponse> {
    return this.screening.search(client, query.query, query.limit);
  }

  @Get('sanctions/datasets')
  @Answers(contracts.screening.datasets, { summary: "A list's entities, one page" })
  @Credentials('dashboard')
  datasets(
    @CurrentClient() client: ResolvedKey,
    @ZodQuery(datasetsQuerySchema) query: z.output<typeof datasetsQuerySchema>,
  ): Promise<DatasetsResponse> {
    return this.screening.datasets(client, query);
  }

  @Get('sanctions/entity/:id')
  @Answers(contracts.screening.entity, { summary: 'One list entity' })
  @Credentials('dashboard')
  entity(@CurrentClient() client: ResolvedKey, @ZodParam('id') id: string): Promise<EntityDetails> {
    return this.screening.entity(client, id);
  }

  @Get('status')
  @Answers(apiStatusResponseSchema, { summary: "The client's usage this period" })
  @Credentials('dashboard')
  status(@CurrentClient() client: ResolvedKey): Promise<ApiStatusResponse> {
    return this.quotas.status(client);
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
