import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import { contracts, type ParsedRequestOf } from '@vigil/proto';
import { Credentials, RequiresMemberRole } from '../credentials/credentials.js';
import { ZodRequest } from '../http/route-params.js';
import { Idempotent } from '../idempotency/idempotency.interceptor.js';
import { Answers } from '../http/answers.js';

const on = contracts.screening;

/**
 * The dashboard's read-back of the client's own screenings (logs, sanction alerts, the
 * review queue) and the review decision. The client is the one the verified key names;
 * nothing in the request can point at another.
 */
@Controller('api')
export class ScreeningLogsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('client/logs')
  @Answers(on.logs, { summary: 'Screening log, one page' })
  @Credentials('dashboard')
  logs(
    @ZodRequest(on.logs.request, 'query', { body: false, client: true, query: true })
    request: ParsedRequestOf<typeof on.logs>,
  ) {
    return this.rpc.request(on.logs, request);
  }

  @Get('client/sanction-alerts')
  @Answers(on.alerts, { summary: 'Sanction alerts, one page' })
  @Credentials('dashboard')
  alerts(
    @ZodRequest(on.alerts.request, 'query', { body: false, client: true, query: true })
    request: ParsedRequestOf<typeof on.alerts>,
  ) {
    return this.rpc.request(on.alerts, request);
  }

  @Get('sanctions/review')
  @Answers(on.reviews, { summary: 'The review queue' })
  @Credentials('dashboard')
  reviews(
    @ZodRequest(on.reviews.request, 'query', { body: false, client: true, query: true })
    request: ParsedRequestOf<typeof on.reviews>,
  ) {
    return this.rpc.request(on.reviews, request);
  }

  /**
   * approve → approved, block → blocked, with a reason code (and a note for "other"); under the
   * client's four-eyes setting the decision is a proposal. A decided review takes no further action (409).
   */
  @Post('sanctions/review/:id')
  @Answers(on.decideReview, { summary: 'Decide a review' })
  @HttpCode(200)
  @Credentials('dashboard')
  @RequiresMemberRole('analyst')
  @Idempotent()
  decide(
    @ZodRequest(on.decideReview.request, 'review decision', {
      client: true,
      member: true,
      params: { id: 'id' },
      query: { action: 'action' },
    })
    request: ParsedRequestOf<typeof on.decideReview>,
  ) {
    return this.rpc.request(on.decideReview, request);
  }
}
