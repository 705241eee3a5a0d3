import { Inject, Injectable } from '@nestjs/common';
import { DomainError, RpcClient } from '@vigil/platform';
import {
  BULK_SYNC_MAX_NAMES,
  contracts,
  type ApiBulkScreenRequest,
  type BulkName,
  type BulkJobAccepted,
  type BulkScreenResponse,
  type DatasetsResponse,
  type EntityDetails,
  type Explain,
  type ListsResponse,
  type PaymentScreenBody,
  type PaymentScreenResponse,
  type QuotaLeaseRef,
  type RequestOf,
  screenedByLabel,
  type RequestActor,
  type ResolvedKey,
  type ScreenEntity,
  type ScreenResponse,
  type ScreenResult,
  type ScreenSummaryResponse,
  type SearchResponse,
} from '@vigil/proto';
import { BulkJobs } from '../bulk-jobs/bulk-jobs.service.js';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';
import { outcomeOf, Quotas, type Reservation } from '../quotas/quotas.service.js';

const LISTS_CACHE_MS = 15_000;

/** What a caller may ask of a list's dataset; the client's feeds are added here. */
type DatasetsQuery = Omit<RequestOf<typeof contracts.screening.datasets>, 'feeds'>;

const caller = (client: ResolvedKey) => ({ clientId: client.clientId, tier: client.tier, feeds: client.feeds });

/** An answer asked with explain=full: every result carries its explanation. */
function fullAnswer(answer: ScreenSummaryResponse): ScreenResponse {
  if (answer.results.every((r): r is ScreenResult => 'explanation' in r)) return answer as ScreenResponse;
  throw new DomainError('INTERNAL', 'Screening summarised results that were asked for in full.');
}

/**
 * Screening on behalf of a client: quota first (each name counts one), then the
 * screening service with the client's feeds and thresholds. A failed screening gives
 * its names back, so clients pay only for answers.
 */
@Injectable()
export class ScreeningApi {
  private catalogue: { value: Promise<ListsResponse>; expiresAt: number } | undefined;

  constructor(
    private readonly rpc: RpcClient,
    private readonly quotas: Quotas,
    private readonly jobs: BulkJobs,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** Every result explained in full (the dashboard reshapes it). */
  screen(
    client: ResolvedKey,
    actor: RequestActor,
    entity: ScreenEntity,
    limit?: number,
    operationId?: string,
  ): Promise<ScreenResponse> {
    return this.counted(client, async (quotaLease) =>
      fullAnswer(
        await this.rpc.request(
          contracts.screening.screen,
          this.screenRequest(client, actor, entity, 'full', quotaLease, limit, operationId),
        ),
      ),
    );
  }

  /**
   * The same screen for the public API, answered as screening's JSON bytes: the gateway adds
   * nothing to the answer, so parsing ~10 KB only to serialise it again would be pure cost.
   */
  screenBytes(
    client: ResolvedKey,
    actor: RequestActor,
    entity: ScreenEntity,
    explain: Explain,
    operationId?: string,
  ): Promise<Uint8Array> {
    return this.counted(client, (quotaLease) =>
      this.rpc.requestBytes(
        contracts.screening.screen,
        this.screenRequest(client, actor, entity, explain, quotaLease, undefined, operationId),
      ),
    );
  }

  private screenRequest(
    client: ResolvedKey,
    actor: RequestActor,
    entity: ScreenEntity,
    explain: Explain,
    quotaLease: QuotaLeaseRef,
    limit?: number,
    operationId?: string,
  ) {
    return {
      ...caller(client),
      actor,
      entity,
      explain,
      quotaLease,
      thresholds: client.thresholds,
      ...(limit ? { limit } : {}),
      // A retry of the same Idempotency-Key whose first answer was lost logs under the same id.
      ...(operationId ? { screeningId: operationId } : {}),
    };
  }

  /** A payment message, counted as one screen however many parties it has (screening logs it once). */
  payment(
    client: ResolvedKey,
    actor: RequestActor,
    body: PaymentScreenBody,
    operationId?: string,
  ): Promise<PaymentScreenResponse> {
    return this.counted(client, (quotaLease) =>
      this.rpc.request(contracts.screening.screenPayment, {
        ...caller(client),
        ...body,
        actor,
        quotaLease,
        thresholds: client.thresholds,
        ...(operationId ? { screeningId: operationId } : {}),
      }),
    );
  }

  /** One name counted before `work`, which screens under the reservation's lease. */
  private async counted<T>(client: ResolvedKey, work: (quotaLease: QuotaLeaseRef) => Promise<T>): Promise<T> {
    // Screening answers within the request timeout or not at all; the lease need not wait longer.
    const reservation = await this.quotas.reserve(client, 1, this.config.NATS_REQUEST_TIMEOUT_MS);
    return this.settled(reservation, () => work(reservation.ticket.quotaLease));
  }

  /** Runs `work` and reports its outcome to the reservation's lease. */
  private async settled<T>(reservation: Reservation, work: () => Promise<T>): Promise<T> {
    try {
      const result = await work();
      this.quotas.settle(reservation, 'answered');
      return result;
    } catch (error) {
      this.quotas.settle(reservation, outcomeOf(error));
      throw error;
    }
  }

  /** Bare names or rows with a single screen's fields (`entities`): up to 1,000 answered now, more as a job. */
  async bulk(
    client: ResolvedKey,
    actor: RequestActor,
    request: ApiBulkScreenRequest,
  ): Promise<{ sync: BulkScreenResponse } | { job: BulkJobAccepted }> {
    const names: BulkName[] = request.entities ?? request.names ?? [];
    const limit = request.limit ?? 3;
    if (names.length > BULK_SYNC_MAX_NAMES) {
      // A job's names are screened later by the bulk worker, outside any lease: the job is
      // charged in full, durably, with its creation (or not created).
      const reservation = await this.quotas.reserve(client, names.length);
      return this.settled(reservation, async () => ({
        job: await this.jobs.submit(client, names, limit, reservation.ticket.quotaLease.id, screenedByLabel(actor)),
      }));
    }
    const reservation = await this.quotas.reserve(client, names.length, this.config.BULK_SCREEN_TIMEOUT_MS);
    return this.settled(reservation, async () => ({
      sync: await this.rpc.request(
        contracts.screening.bulkScreen,
        {
          ...caller(client),
          actor,
          names,
          limit,
          thresholds: client.thresholds,
          quotaLease: reservation.ticket.quotaLease,
        },
        { timeoutMs: this.config.BULK_SCREEN_TIMEOUT_MS },
      ),
    }));
  }

  /** Anonymous callers may ask for the catalogue, so one answer serves everyone for LISTS_CACHE_MS. */
  lists(): Promise<ListsResponse> {
    const now = Date.now();
    if (!this.catalogue || this.catalogue.expiresAt <= now) {
      const pending = this.rpc.request(contracts.screening.lists, {});
      this.catalogue = { value: pending, expiresAt: now + LISTS_CACHE_MS };
      pending.catch(() => {
        if (this.catalogue?.value === pending) this.catalogue = undefined;
      });
    }
    return this.catalogue.value;
  }

  search(client: ResolvedKey, query: string, limit: number | undefined): Promise<SearchResponse> {
    return this.rpc.request(contracts.screening.search, {
      feeds: client.feeds,
      query,
      ...(limit !== undefined ? { limit } : {}),
    });
  }

  entity(client: ResolvedKey, id: string): Promise<EntityDetails> {
    return this.rpc.request(contracts.screening.entity, { feeds: client.feeds, id });
  }

  datasets(client: ResolvedKey, query: DatasetsQuery): Promise<DatasetsResponse> {
    return this.rpc.request(
      contracts.screening.datasets,
      { feeds: client.feeds, ...query },
      { timeoutMs: this.config.BULK_SCREEN_TIMEOUT_MS },
    );
  }
}
