import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import { contracts, type ParsedRequestOf } from '@vigil/proto';
import { Credentials, RequiresMemberRole } from '../credentials/credentials.js';
import { ZodRequest } from '../http/route-params.js';
import { Idempotent } from '../idempotency/idempotency.interceptor.js';
import { Answers } from '../http/answers.js';

const on = contracts.screening;

/**
 * Case work on the review queue (issue #19): one case, the second pair of eyes on a proposal,
 * the client's four-eyes setting and its remembered false positives. The client is the signed-in
 * member's; the member is named on every step. The gateway checks the least role from the token
 * and the screening service applies the four-eyes rules (who may confirm what).
 */
@Controller('api')
export class ReviewsController {
  constructor(private readonly rpc: RpcClient) {}

  /** The case pane: searched input beside the list entry, the explanation, earlier decisions on the entity. */
  @Get('sanctions/review/:id')
  @Answers(on.reviewCase, { summary: 'A review case' })
  @Credentials('dashboard')
  caseOf(
    @ZodRequest(on.reviewCase.request, 'review case request', { body: false, client: true, params: { id: 'id' } })
    request: ParsedRequestOf<typeof on.reviewCase>,
  ) {
    return this.rpc.request(on.reviewCase, request);
  }

  /** A supervisor or owner other than the proposer makes a proposal final. */
  @Post('sanctions/review/:id/confirm')
  @Answers(on.confirmReview, { summary: 'Confirm a review decision (second pair of eyes)' })
  @HttpCode(200)
  @Credentials('dashboard')
  @RequiresMemberRole('supervisor')
  @Idempotent()
  confirm(
    @ZodRequest(on.confirmReview.request, 'review confirmation', {
      body: false,
      client: true,
      member: true,
      params: { id: 'id' },
    })
    request: ParsedRequestOf<typeof on.confirmReview>,
  ) {
    return this.rpc.request(on.confirmReview, request);
  }

  /** A proposal goes back to pending: sent back by a supervisor or owner, or withdrawn by its proposer. */
  @Post('sanctions/review/:id/return')
  @Answers(on.returnReview, { summary: 'Return a review decision' })
  @HttpCode(200)
  @Credentials('dashboard')
  @RequiresMemberRole('analyst')
  @Idempotent()
  returnToQueue(
    @ZodRequest(on.returnReview.request, 'review return', { client: true, member: true, params: { id: 'id' } })
    request: ParsedRequestOf<typeof on.returnReview>,
  ) {
    return this.rpc.request(on.returnReview, request);
  }

  @Get('sanctions/review-settings')
  @Answers(on.reviewSettings, { summary: 'Review settings' })
  @Credentials('dashboard')
  settings(
    @ZodRequest(on.reviewSettings.request, 'review settings request', { body: false, client: true })
    request: ParsedRequestOf<typeof on.reviewSettings>,
  ) {
    return this.rpc.request(on.reviewSettings, request);
  }

  /** `{fourEyes}`: every approve/block becomes a proposal a second supervisor or owner confirms. */
  @Put('sanctions/review-settings')
  @Answers(on.updateReviewSettings, { summary: 'Change review settings' })
  @Credentials('dashboard')
  @RequiresMemberRole('supervisor')
  updateSettings(
    @ZodRequest(on.updateReviewSettings.request, 'review settings', { client: true, member: true })
    request: ParsedRequestOf<typeof on.updateReviewSettings>,
  ) {
    return this.rpc.request(on.updateReviewSettings, request);
  }

  @Get('sanctions/remembered')
  @Answers(on.remembered, { summary: 'Remembered false-positive decisions' })
  @Credentials('dashboard')
  remembered(
    @ZodRequest(on.remembered.request, 'query', { body: false, client: true, query: true })
    request: ParsedRequestOf<typeof on.remembered>,
  ) {
    return this.rpc.request(on.remembered, request);
  }

  /** Later screens with this memory's key are flagged again. */
  @Delete('sanctions/remembered/:id')
  @Answers(on.revokeRemembered, { summary: 'Forget a remembered decision' })
  @Credentials('dashboard')
  @RequiresMemberRole('analyst')
  revoke(
    @ZodRequest(on.revokeRemembered.request, 'remembered decision', {
      body: false,
      client: true,
      member: true,
      params: { id: 'id' },
    })
    request: ParsedRequestOf<typeof on.revokeRemembered>,
  ) {
    return this.rpc.request(on.revokeRemembered, request);
  }
}
