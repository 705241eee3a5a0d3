import { Injectable } from '@nestjs/common';
import { DomainError } from '@vigil/platform';
import type {
  DailyUsageResponse,
  DecideReviewRequest,
  ParsedDailyUsageRequest,
  DecideReviewResponse,
  ParsedReviewsRequest,
  ParsedSanctionAlertsRequest,
  ParsedScreeningLogsRequest,
  ReviewAction,
  ReviewsResponse,
  SanctionAlertsResponse,
  ScreeningLogsResponse,
} from '@vigil/proto';
import { OutboxRelay } from '../events/outbox.relay.js';
import { ScreeningLogsReadRepository } from './screening-logs.read-repository.js';

const DAY_MS = 86_400_000;
const isBareDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
const DECISIONS: Readonly<Record<ReviewAction, 'approved' | 'blocked'>> = { approve: 'approved', block: 'blocked' };

/** What a client reads back from its own screenings, and the analyst's decision on a review. */
@Injectable()
export class ScreeningLogsService {
  constructor(
    private readonly repository: ScreeningLogsReadRepository,
    private readonly relay: OutboxRelay,
  ) {}

  async logs(request: ParsedScreeningLogsRequest): Promise<ScreeningLogsResponse> {
    const { clientId, limit, offset } = request;
    const filters = {
      ...(request.searchedName !== undefined ? { searchedName: request.searchedName } : {}),
      ...(request.fromDate ? { from: new Date(request.fromDate) } : {}),
      // A bare toDate includes the whole day; an instant includes itself.
      ...(request.toDate
        ? { toExclusive: new Date(Date.parse(request.toDate) + (isBareDate(request.toDate) ? DAY_MS : 1)) }
        : {}),
    };
    const [page, counts] = await Promise.all([
      this.repository.logs(
        clientId,
        { ...filters, ...(request.matchFound !== undefined ? { matchFound: request.matchFound } : {}) },
        { limit, offset },
      ),
      this.repository.logCounts(clientId, filters),
    ]);
    return { logs: page.rows, total: page.total, counts, limit, offset };
  }

  async daily(request: ParsedDailyUsageRequest): Promise<DailyUsageResponse> {
    return { days: await this.repository.daily(request.clientId, request.days) };
  }

  async alerts(request: ParsedSanctionAlertsRequest): Promise<SanctionAlertsResponse> {
    const { clientId, limit, offset } = request;
    const [page, unreviewed] = await Promise.all([
      this.repository.alerts(clientId, { limit, offset }),
      this.repository.unreviewedAlerts(clientId),
    ]);
    return { alerts: page.rows, total: page.total, unreviewed, limit, offset };
  }

  async reviews(request: ParsedReviewsRequest): Promise<ReviewsResponse> {
    const { clientId, status, limit, offset } = request;
    const [page, counts] = await Promise.all([
      this.repository.reviews(clientId, status, { limit, offset }),
      this.repository.reviewCounts(clientId),
    ]);
    return { reviews: page.rows, total: page.total, counts, limit, offset };
  }

  async decide(request: DecideReviewRequest): Promise<DecideReviewResponse> {
    const outcome = await this.repository.decide(request.clientId, request.id, DECISIONS[request.action], request.actorId);
    // Another client's review does not exist for this one.
    if (!outcome) throw new DomainError('NOT_FOUND', `No review ${request.id}.`);
    if (!outcome.decided) {
      throw new DomainError(
        'CONFLICT',
        `Review ${request.id} was already decided (${outcome.review.status}); decided reviews take no further action.`,
      );
    }
    // The decision's audit event is in the outbox: publish it now rather than at the next poll.
    this.relay.nudge();
    return { review: outcome.review };
  }
}
