import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import {
  type DailyUsageResponse,
  type QuotaLeaseAnswersResponse,
  type ReviewsResponse,
  type SanctionAlertsResponse,
  type ScreeningLogsResponse,
  contracts,
  type ParsedRequestOf,
} from '@vigil/proto';
import { ScreeningLogsService } from './screening-logs.service.js';

@Controller()
export class ScreeningLogsHandler {
  constructor(private readonly service: ScreeningLogsService) {}

  @Handles(contracts.screening.logs, 'logs request')
  logs(request: ParsedRequestOf<typeof contracts.screening.logs>): Promise<ScreeningLogsResponse> {
    return this.service.logs(request);
  }

  @Handles(contracts.screening.dailyUsage, 'daily usage request')
  daily(request: ParsedRequestOf<typeof contracts.screening.dailyUsage>): Promise<DailyUsageResponse> {
    return this.service.daily(request);
  }

  @Handles(contracts.screening.quotaLeaseAnswers, 'quota lease answers request')
  quotaLeaseAnswers(
    request: ParsedRequestOf<typeof contracts.screening.quotaLeaseAnswers>,
  ): Promise<QuotaLeaseAnswersResponse> {
    return this.service.quotaLeaseAnswers(request);
  }

  @Handles(contracts.screening.alerts, 'alerts request')
  alerts(request: ParsedRequestOf<typeof contracts.screening.alerts>): Promise<SanctionAlertsResponse> {
    return this.service.alerts(request);
  }

  @Handles(contracts.screening.reviews, 'reviews request')
  reviews(request: ParsedRequestOf<typeof contracts.screening.reviews>): Promise<ReviewsResponse> {
    return this.service.reviews(request);
  }
}
