import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { parseMessage } from '@vigil/platform';
import {
  dailyUsageRequestSchema,
  decideReviewRequestSchema,
  reviewsRequestSchema,
  sanctionAlertsRequestSchema,
  screeningLogsRequestSchema,
  subjects,
  type DailyUsageResponse,
  type DecideReviewResponse,
  type ReviewsResponse,
  type SanctionAlertsResponse,
  type ScreeningLogsResponse,
} from '@vigil/proto';
import { ScreeningLogsService } from './screening-logs.service.js';

@Controller()
export class ScreeningLogsHandler {
  constructor(private readonly service: ScreeningLogsService) {}

  @MessagePattern(subjects.screening.logs)
  logs(@Payload() data: unknown): Promise<ScreeningLogsResponse> {
    return this.service.logs(parseMessage(screeningLogsRequestSchema, data, 'logs request'));
  }

  @MessagePattern(subjects.screening.dailyUsage)
  daily(@Payload() data: unknown): Promise<DailyUsageResponse> {
    return this.service.daily(parseMessage(dailyUsageRequestSchema, data, 'daily usage request'));
  }

  @MessagePattern(subjects.screening.alerts)
  alerts(@Payload() data: unknown): Promise<SanctionAlertsResponse> {
    return this.service.alerts(parseMessage(sanctionAlertsRequestSchema, data, 'alerts request'));
  }

  @MessagePattern(subjects.screening.reviews)
  reviews(@Payload() data: unknown): Promise<ReviewsResponse> {
    return this.service.reviews(parseMessage(reviewsRequestSchema, data, 'reviews request'));
  }

  @MessagePattern(subjects.screening.decideReview)
  decide(@Payload() data: unknown): Promise<DecideReviewResponse> {
    return this.service.decide(parseMessage(decideReviewRequestSchema, data, 'review decision'));
  }
}
