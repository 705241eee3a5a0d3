import { Inject, Injectable } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import { BULK_SCREEN_MAX_NAMES, contracts, type BulkItem, type ListVersionRef } from '@vigil/proto';
import type { ClientSnapshot } from '../clients/monitoring-clients.repository.js';
import { MONITORING_CONFIG } from '../config.token.js';
import type { MonitoringConfig } from '../env.js';

/** Screening over NATS on a client's behalf: its feeds, tier and thresholds. */
@Injectable()
export class ScreeningAdapter {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(MONITORING_CONFIG) private readonly config: MonitoringConfig,
  ) {}

  /** One result per name, in order (slices of 1,000 names, the bulk route's limit). */
  async bulk(
    client: ClientSnapshot,
    names: readonly string[],
    screeningIds?: readonly string[],
  ): Promise<{ items: BulkItem[]; listVersions: ListVersionRef[] }> {
    const items: BulkItem[] = [];
    let listVersions: ListVersionRef[] = [];
    for (let start = 0; start < names.length; start += BULK_SCREEN_MAX_NAMES) {
      const slice = names.slice(start, start + BULK_SCREEN_MAX_NAMES);
      // Its own subject: screening logs these as monitoring's re-screens.
      const reply = await this.rpc.request(
        contracts.screening.rescreen,
        {
          clientId: client.clientId,
          tier: client.tier,
          feeds: client.feeds,
          names: slice,
          ...(screeningIds ? { screeningIds: screeningIds.slice(start, start + BULK_SCREEN_MAX_NAMES) } : {}),
          thresholds: client.thresholds,
          limit: 10,
        },
        { timeoutMs: this.config.SCREEN_TIMEOUT_MS },
      );
      if (reply.results.length !== slice.length) {
        throw new Error(`screening answered ${reply.results.length} results for ${slice.length} names`);
      }
      items.push(...reply.results);
      listVersions = reply.listVersions;
    }
    return { items, listVersions };
  }
}
