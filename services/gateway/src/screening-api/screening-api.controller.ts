import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import {
  INT4_MAX,
  PLANS,
  apiBulkScreenRequestSchema,
  apiScreenRequestSchema,
  explainSchema,
  type ApiBulkScreenRequest,
  type ApiScreenRequest,
  type ApiStatusResponse,
  type BulkJobResponse,
  type BulkScreenResponse,
  type Plan,
  type RequestActor,
  type ResolvedKey,
  contracts,
  bulkScreenResponseSchema,
  bulkJobAcceptedSchema,
  bulkJobResponseSchema,
  apiStatusResponseSchema,
  plansResponseSchema,
  paymentScreenBodySchema,
  type PaymentScreenBody,
  type PaymentScreenResponse,
} from '@vigil/proto';
import { z } from 'zod';
import { BulkJobs, JOB_PAGE_MAX } from '../bulk-jobs/bulk-jobs.service.js';
import { Credentials } from '../credentials/credentials.js';
import { BytesReply } from '../http/bytes-reply.js';
import { CurrentClient, ScreeningActor, ZodBody, ZodParam, ZodQuery } from '../http/route-params.js';
import { Idempotent } from '../idempotency/idempotency.interceptor.js';
import { OperationId } from '../idempotency/operation-id.js';
import { Quotas } from '../quotas/quotas.service.js';
import { ScreeningApi } from './screening-api.service.js';
import { Answers } from '../http/answers.js';
import { IfNoneMatch, listMetadataReply } from './list-metadata.js';
import {
  BULK_JOB_ACCEPTED_EXAMPLE,
  BULK_JOB_EXAMPLE,
  BULK_SCREEN_EXAMPLE,
  LISTS_EXAMPLE,
  PAYMENT_SCREEN_EXAMPLE,
  PLANS_EXAMPLE,
  SCREEN_EXAMPLE,
  STATUS_EXAMPLE,
} from '../openapi/answer-examples.js';

const screenQuerySchema = z.object({
  explain: explainSchema
    .default('flagged')
    .describe(
      'flagged (the default): review and blocked results in full, with their explanation; clear candidates ' +
        'summarised as id, name and score. full: every result in full, with its explanation.',
    ),
});

const jobQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).max(INT4_MAX).default(0),
  limit: z.coerce.number().int().min(1).max(JOB_PAGE_MAX).default(100),
  format: z.enum(['json', 'csv']).default('json'),
});

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
  @Answers(contracts.screening.screen, { summary: 'Screen one name', example: SCREEN_EXAMPLE })
  @HttpCode(200)
  @Credentials('api-key')
  @Idempotent()
  async screen(
    @CurrentClient() client: ResolvedKey,
    @ScreeningActor() actor: RequestActor,
    @ZodBody(apiScreenRequestSchema, 'screening request') request: ApiScreenRequest,
    @ZodQuery(screenQuerySchema) { explain }: z.output<typeof screenQuerySchema>,
    @OperationId() operationId: string | undefined,
  ): Promise<BytesReply> {
    // Screening's answer (ScreenSummaryResponse), forwarded as it wrote it.
    return new BytesReply(await this.screening.screenBytes(client, actor, request, explain, operationId));
  }

  @Post('screen/payment')
  @Answers(contracts.screening.screenPayment, {
    summary: 'Screen a payment message',
    description:
      'An ISO 20022 pacs.008, pacs.009 or pain.001 (XML) or a SWIFT MT103, as the string `message`: every ' +
      'party, agent, BIC, IBAN, wallet, country and free-text field screened, each hit naming its field. ' +
      'A message counts as one screen. A message that cannot be read is refused with PAYMENT_MESSAGE_INVALID.',
    example: PAYMENT_SCREEN_EXAMPLE,
  })
  @HttpCode(200)
  @Credentials('api-key')
  @Idempotent()
  screenPayment(
    @CurrentClient() client: ResolvedKey,
    @ScreeningActor() actor: RequestActor,
    @ZodBody(paymentScreenBodySchema, 'payment screening request') body: PaymentScreenBody,
    @OperationId() operationId: string | undefined,
  ): Promise<PaymentScreenResponse> {
    return this.screening.payment(client, actor, body, operationId);
  }

  @Post('bulk-screen')
  @Answers(bulkScreenResponseSchema, {
    summary: 'Screen many names',
    description: 'Up to 1,000 names: the results.',
    example: BULK_SCREEN_EXAMPLE,
  })
  @Answers(bulkJobAcceptedSchema, {
    status: 202,
    description: 'More than 1,000 names: the job to poll (Location).',
    example: BULK_JOB_ACCEPTED_EXAMPLE,
  })
  @HttpCode(200)
  @Credentials('api-key')
  @Idempotent()
  async bulkScreen(
    @CurrentClient() client: ResolvedKey,
    @ScreeningActor() actor: RequestActor,
    @ZodBody(apiBulkScreenRequestSchema, 'bulk screening request') body: ApiBulkScreenRequest,
  ): Promise<BulkScreenResponse | Response> {
    return bulkReply(await this.screening.bulk(client, actor, body));
  }

  @Get('jobs/:id')
  @Answers(bulkJobResponseSchema, {
    summary: 'A bulk job: progress and results',
    also: [{ mediaType: 'text/csv' }],
    example: BULK_JOB_EXAMPLE,
  })
  @Credentials('api-key')
  async job(
    @CurrentClient() { clientId }: ResolvedKey,
    @ZodParam('id') id: string,
    @ZodQuery(jobQuerySchema) { offset, limit, format }: z.output<typeof jobQuerySchema>,
  ): Promise<BulkJobResponse | Response> {
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
  @Answers(contracts.screening.lists, { summary: 'The list catalogue', example: LISTS_EXAMPLE })
  @ApiResponse({ status: 304, description: 'The catalogue has not changed since the ETag sent in If-None-Match.' })
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'The ETag of a catalogue the client holds.' })
  @Credentials('api-key')
  async lists(@IfNoneMatch() ifNoneMatch: string | undefined): Promise<BytesReply> {
    return listMetadataReply(await this.screening.lists(), ifNoneMatch);
  }

  @Get('status')
  @Answers(apiStatusResponseSchema, { summary: "The client's usage this period", example: STATUS_EXAMPLE })
  @Credentials('api-key')
  status(@CurrentClient() client: ResolvedKey): Promise<ApiStatusResponse> {
    return this.quotas.status(client);
  }

  /** The plan catalogue (tiers, prices, quotas, rate limits, feeds) for the web apps. */
  @Get('plans')
  @Answers(plansResponseSchema, { summary: 'The plan catalogue', example: PLANS_EXAMPLE })
  @Credentials('public')
  plans(): { plans: readonly Plan[] } {
    return { plans: PLANS };
  }
}
