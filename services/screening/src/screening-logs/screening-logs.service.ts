import { Injectable } from '@nestjs/common';
import type {
  contracts,
  DailyUsageResponse,
  ParsedDailyUsageRequest,
  ParsedReviewsRequest,
  ParsedSanctionAlertsRequest,
  ParsedScreeningLogsRequest,
  ParsedRequestOf,
  QuotaLeaseAnswersResponse,
  ReviewsResponse,
  SanctionAlertsResponse,
  ScreeningLogsResponse,
  ScreenedByFilter,
  ScreeningActorKind,
} from '@vigil/proto';
import {
  ScreeningLogsReadRepository,
  type AlertFilters,
  type HistoryFilters,
  type LogFilters,
} from './screening-logs.read-repository.js';

const DAY_MS = 86_400_000;
const isBareDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The Logs' and Alerts' shared filters, as the repository takes them. */
function historyFilters(request: {
  searchedName?: string | undefined;
  fromDate?: string | undefined;
  toDate?: string | undefined;
  screenedBy?: ScreenedByFilter | undefined;
}): HistoryFilters {
  const [kind, ...id] = request.screenedBy?.split(':') ?? [];
  return {
    ...(request.searchedName !== undefined ? { searchedName: request.searchedName } : {}),
    ...(request.fromDate ? { from: new Date(request.fromDate) } : {}),
    // A bare toDate includes the whole day; an instant includes itself.
    ...(request.toDate
      ? { toExclusive: new Date(Date.parse(request.toDate) + (isBareDate(request.toDate) ? DAY_MS : 1)) }
      : {}),
    ...(kind
      ? { screenedBy: { kind: kind as ScreeningActorKind, ...(id.length > 0 ? { id: id.join(':') } : {}) } }
      : {}),
  };
}

/** What a client reads back from its own screenings: logs, alerts, the review queue. */
@Injectable()
export class ScreeningLogsService {
  constructor(private readonly repository: ScreeningLogsReadRepository) {}

  async logs(request: ParsedScreeningLogsRequest): Promise<ScreeningLogsResponse> {
    const { clientId, limit, offset } = request;
    const filters: LogFilters = {
      ...historyFilters(request),
      ...(request.matchFound !== undefined ? { matchFound: request.matchFound } : {}),
      ...(request.status !== undefined ? { status: request.status } : {}),
    };
    const [page, counts] = await Promise.all([
      this.repository.logs(clientId, filters, { limit, offset }),
      this.repository.logCounts(clientId, filters),
    ]);
    return { logs: page.rows, total: page.total, counts, limit, offset };
  }

  async daily(request: ParsedDailyUsageRequest): Promise<DailyUsageResponse> {
    return { days: await this.repository.daily(request.clientId, request.days) };
  }

  async quotaLeaseAnswers(
    request: ParsedRequestOf<typeof contracts.screening.quotaLeaseAnswers>,
  ): Promise<QuotaLeaseAnswersResponse> {
    return { answers: await this.repository.quotaLeaseAnswers([...new Set(request.leaseIds)]) };
  }

  async alerts(request: ParsedSanctionAlertsRequest): Promise<SanctionAlertsResponse> {
    const { clientId, limit, offset } = request;
    const filters: AlertFilters = {
      ...historyFilters(request),
      ...(request.reviewed !== undefined ? { reviewed: request.reviewed } : {}),
      ...(request.confidence !== undefined ? { confidence: request.confidence } : {}),
    };
    const [page, counts] = await Promise.all([
      this.repository.alerts(clientId, filters, { limit, offset }),
      this.repository.alertCounts(clientId, filters),
    ]);
    return { alerts: page.rows, total: page.total, all: counts.all, unreviewed: counts.unreviewed, limit, offset };
  }

  async reviews(request: ParsedReviewsRequest): Promise<ReviewsResponse> {
    const { clientId, status, limit, offset } = request;
    const [page, counts] = await Promise.all([
      this.repository.reviews(clientId, status, { limit, offset }),
      this.repository.reviewCounts(clientId),
    ]);
    return { reviews: page.rows, total: page.total, counts, limit, offset };
  }
}
