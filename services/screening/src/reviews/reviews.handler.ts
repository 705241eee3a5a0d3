import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import {
  contracts,
  type DecideReviewResponse,
  type ParsedRequestOf,
  type RememberedResponse,
  type ReviewActionResponse,
  type ReviewCaseResponse,
  type ReviewSettings,
  type RevokeRememberedResponse,
} from '@vigil/proto';
import { ReviewsService } from './reviews.service.js';

const on = contracts.screening;

@Controller()
export class ReviewsHandler {
  constructor(private readonly service: ReviewsService) {}

  @Handles(on.decideReview, 'review decision')
  decide(request: ParsedRequestOf<typeof on.decideReview>): Promise<DecideReviewResponse> {
    return this.service.decide(request);
  }

  @Handles(on.confirmReview, 'review confirmation')
  confirm(request: ParsedRequestOf<typeof on.confirmReview>): Promise<ReviewActionResponse> {
    return this.service.confirm(request);
  }

  @Handles(on.returnReview, 'review return')
  returnToQueue(request: ParsedRequestOf<typeof on.returnReview>): Promise<ReviewActionResponse> {
    return this.service.returnToQueue(request);
  }

  @Handles(on.reviewCase, 'review case request')
  caseOf(request: ParsedRequestOf<typeof on.reviewCase>): Promise<ReviewCaseResponse> {
    return this.service.caseOf(request);
  }

  @Handles(on.reviewSettings, 'review settings request')
  settings(request: ParsedRequestOf<typeof on.reviewSettings>): Promise<ReviewSettings> {
    return this.service.settings(request);
  }

  @Handles(on.updateReviewSettings, 'review settings')
  updateSettings(request: ParsedRequestOf<typeof on.updateReviewSettings>): Promise<ReviewSettings> {
    return this.service.updateSettings(request);
  }

  @Handles(on.remembered, 'remembered decisions request')
  remembered(request: ParsedRequestOf<typeof on.remembered>): Promise<RememberedResponse> {
    return this.service.remembered(request);
  }

  @Handles(on.revokeRemembered, 'remembered decision revocation')
  revoke(request: ParsedRequestOf<typeof on.revokeRemembered>): Promise<RevokeRememberedResponse> {
    return this.service.revoke(request);
  }
}
