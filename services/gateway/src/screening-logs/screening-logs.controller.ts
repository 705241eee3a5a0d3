import { Controller, Get, HttpCode, Param, Post, Query, Req, UseInterceptors } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { RpcClient, parseMessage } from '@vigil/platform';
import {
  REVIEW_ACTIONS,
  REVIEW_STATUSES,
  decideReviewRequestSchema,
  reviewsRequestSchema,
  sanctionAlertsRequestSchema,
  screeningLogsRequestSchema,
  subjects,
  type DecideReviewResponse,
  type ReviewsResponse,
  type SanctionAlertsResponse,
  type ScreeningLogsResponse,
} from '@vigil/proto';
import type { Request } from 'express';
import { Credentials, callerOf } from '../credentials/credentials.js';
import { typedQuery } from '../http/query.js';
import { IdempotencyInterceptor } from '../idempotency/idempotency.interceptor.js';
import { clientOf } from '../screening-api/screening-api.controller.js';

const PAGING = { limit: 'number', offset: 'number' } as const;

/**
 * The dashboard's read-back of the client's own screenings (logs, sanction alerts, the
 * review queue) and the review decision. The client is the one the verified key names;
 * nothing in the request can point at another.
 */
@Controller('api')
export class ScreeningLogsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('client/logs')
  @Credentials('dashboard')
  @ApiQuery({ name: 'searchedName', required: false, description: 'Case-insensitive part of the searched name.' })
  @ApiQuery({ name: 'matchFound', required: false, enum: ['true', 'false'] })
  @ApiQuery({ name: 'fromDate', required: false, description: 'YYYY-MM-DD or an ISO 8601 instant; inclusive.' })
  @ApiQuery({
    name: 'toDate',
    required: false,
    description: 'YYYY-MM-DD (whole day) or an ISO 8601 instant; inclusive.',
  })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 500, default 100.' })
  @ApiQuery({ name: 'offset', required: false })
  logs(@Req() req: Request, @Query() query: Record<string, unknown>): Promise<ScreeningLogsResponse> {
    const typed = typedQuery(query, {
      searchedName: 'string',
      matchFound: 'boolean',
      fromDate: 'string',
      toDate: 'string',
      ...PAGING,
    });
    return this.rpc.request(
      subjects.screening.logs,
      parseMessage(screeningLogsRequestSchema, { ...typed, clientId: clientOf(req).clientId }, 'query'),
    );
  }

  @Get('client/sanction-alerts')
  @Credentials('dashboard')
  @ApiQuery({ name: 'limit', required: false, description: '1 to 500, default 100.' })
  @ApiQuery({ name: 'offset', required: false })
  alerts(@Req() req: Request, @Query() query: Record<string, unknown>): Promise<SanctionAlertsResponse> {
    return this.rpc.request(
      subjects.screening.alerts,
      parseMessage(
        sanctionAlertsRequestSchema,
        { ...typedQuery(query, PAGING), clientId: clientOf(req).clientId },
        'query',
      ),
    );
  }

  @Get('sanctions/review')
  @Credentials('dashboard')
  @ApiQuery({ name: 'status', required: false, enum: REVIEW_STATUSES })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 500, default 100.' })
  @ApiQuery({ name: 'offset', required: false })
  reviews(@Req() req: Request, @Query() query: Record<string, unknown>): Promise<ReviewsResponse> {
    return this.rpc.request(
      subjects.screening.reviews,
      parseMessage(
        reviewsRequestSchema,
        { ...typedQuery(query, { status: 'string', ...PAGING }), clientId: clientOf(req).clientId },
        'query',
      ),
    );
  }

  /** approve → approved, block → blocked; a decided review takes no further action (409). */
  @Post('sanctions/review/:id')
  @HttpCode(200)
  @Credentials('dashboard')
  @UseInterceptors(IdempotencyInterceptor)
  @ApiQuery({ name: 'action', required: true, enum: REVIEW_ACTIONS })
  decide(
    @Req() req: Request,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<DecideReviewResponse> {
    return this.rpc.request(
      subjects.screening.decideReview,
      parseMessage(
        decideReviewRequestSchema,
        {
          ...typedQuery(query, { action: 'string' }),
          id,
          clientId: clientOf(req).clientId,
          actorId: callerOf(req).user?.id ?? null,
        },
        'review decision',
      ),
    );
  }
}
