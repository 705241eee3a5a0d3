import { Injectable, Logger } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import { contracts, type Feed, type ListsUpdatedEvent } from '@vigil/proto';
import { AlertsRepository } from '../alerts/alerts.repository.js';
import { ChecksService } from '../checks/checks.service.js';
import { MonitoredNameIndex } from './monitored-name-index.js';
import { ListUpdatesRepository } from './list-updates.repository.js';

const DETAILS_CONCURRENCY = 8;

export type RescreenSummary = {
  deltaNames: number;
  monitored: number;
  candidates: number;
  alertsRaised: number;
  alertsClosed: number;
  durationMs: number;
  /** Where the time went: fetching the delta's names, building the index, the lookup, the re-screen. */
  phasesMs?: { fetch: number; index: number; lookup: number; rescreen: number };
  skipped?: 'already-processed' | 'incomplete-delta';
};

/**
 * Re-screens the monitored names a list version could match: the names of its added and changed
 * entities are looked up in an index of the monitored names, only those candidates are screened
 * again (with their client's feeds and thresholds), and alerts are raised for new or changed
 * matches on the delta's entities. Entities the version removed close their open alerts.
 */
@Injectable()
export class ListUpdatesService {
  private readonly logger = new Logger(ListUpdatesService.name);

  constructor(
    private readonly rpc: RpcClient,
    private readonly checks: ChecksService,
    private readonly alerts: AlertsRepository,
    private readonly repository: ListUpdatesRepository,
  ) {}

  async process(event: ListsUpdatedEvent, heartbeat: () => void = () => undefined): Promise<RescreenSummary> {
    const started = performance.now();
    if (await this.repository.processed(event.source, event.versionId)) {
      return {
        deltaNames: 0,
        monitored: 0,
        candidates: 0,
        alertsRaised: 0,
        alertsClosed: 0,
        durationMs: 0,
        skipped: 'already-processed',
      };
    }
    if (!event.complete) {
      // Too large a delta to carry its ids: check every entity that sees this feed instead.
      const due = await this.repository.makeDue(event.feed);
      this.logger.log(
        `${event.source} v${event.versionId}: delta without ids; ${due} entities made due for a full check`,
      );
      const summary = {
        deltaNames: 0,
        monitored: due,
        candidates: due,
        alertsRaised: 0,
        alertsClosed: 0,
        durationMs: 0,
        skipped: 'incomplete-delta' as const,
      };
      await this.repository.markProcessed(event, summary);
      return summary;
    }
    const ids = [...event.added, ...event.changed];
    const lap = lapTimer();
    const { names, addresses } = await this.deltaNames(event.feed, ids, heartbeat);
    const fetch = lap();
    heartbeat();
    const monitored = await this.repository.monitoredForFeed(event.feed);
    const index = new MonitoredNameIndex(monitored);
    const indexMs = lap();
    heartbeat();
    const candidates = index.lookup(names, addresses);
    const lookup = lap();
    heartbeat();
    const alertsRaised = await this.checks.rescreen(candidates, {
      source: event.source,
      versionId: event.versionId,
      added: new Set(event.added),
      changed: new Set(event.changed),
    });
    const alertsClosed = await this.alerts.closeRemoved(
      event.removed,
      `Closed: the listed entity was removed from ${event.source} in version ${event.versionId}.`,
    );
    const rescreen = lap();
    const summary: RescreenSummary = {
      phasesMs: { fetch, index: indexMs, lookup, rescreen },
      deltaNames: names.length,
      monitored: monitored.length,
      candidates: candidates.length,
      alertsRaised,
      alertsClosed,
      durationMs: Math.round(performance.now() - started),
    };
    await this.repository.markProcessed(event, summary);
    this.logger.log(`${event.source} v${event.versionId}: ${JSON.stringify(summary)}`);
    return summary;
  }

  /** Every name (primary and aliases) and wallet address of the delta's entities, from the screening service. */
  private async deltaNames(
    feed: Feed,
    ids: readonly string[],
    heartbeat: () => void,
  ): Promise<{ names: string[]; addresses: string[] }> {
    const names: string[] = [];
    const addresses: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const id = ids[next++]!;
        const details = await this.rpc.request(contracts.screening.entity, { feeds: [feed], id });
        for (const n of details.names) names.push(n.full);
        for (const i of details.identifiers) if (i.type === 'crypto-address') addresses.push(i.value);
        if (next % 50 === 0) heartbeat();
      }
    };
    await Promise.all(Array.from({ length: Math.min(DETAILS_CONCURRENCY, ids.length) }, worker));
    return { names: [...new Set(names)], addresses: [...new Set(addresses)] };
  }
}

/** Milliseconds since the previous call (or since it was made). */
function lapTimer(): () => number {
  let last = performance.now();
  return () => {
    const now = performance.now();
    const ms = Math.round(now - last);
    last = now;
    return ms;
  };
}
