import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { BulkItem, BulkMatch, MonitoringAlert } from '@vigil/proto';
import type { Transaction } from '@vigil/platform';
import { AlertsRepository, type MatchToRaise } from '../alerts/alerts.repository.js';
import { MonitoringClientsRepository, type ClientSnapshot } from '../clients/monitoring-clients.repository.js';
import { PushPublisher } from '../push/push.publisher.js';
import { WebhooksRepository } from '../webhooks/webhooks.repository.js';
import { ChecksRepository, type CheckOutcome, type CheckTarget } from './checks.repository.js';
import { ScreeningAdapter } from './screening.adapter.js';

/** A list version's delta, for a re-screen: only matches on these list entities raise alerts. */
export type DeltaContext = {
  source: string;
  versionId: number;
  added: ReadonlySet<string>;
  changed: ReadonlySet<string>;
};

/** Wait this long before a check whose screening failed is tried again. */
const FAILED_CHECK_RETRY_MS = 30_000;

/** One entity's screening: every name it goes by, the worst result kept. */
type Screened = { target: CheckTarget; outcome: CheckOutcome; matches: BulkMatch[] };

/** §4 "Client-list entry screening status" from a bulk result. */
function outcomeOf(items: readonly BulkItem[]): { outcome: CheckOutcome; matches: BulkMatch[] } {
  const matches = new Map<string, BulkMatch>();
  for (const item of items)
    for (const m of item.results) {
      const seen = matches.get(m.id);
      if (!seen || seen.score < m.score) matches.set(m.id, m);
    }
  const all = [...matches.values()].sort((a, b) => b.score - a.score);
  const top = all[0];
  if (!top)
    return {
      outcome: { status: 'clear', score: 0, source: null, details: 'No match on the lists screened.' },
      matches: [],
    };
  const blocked = items.some((i) => i.blocked);
  return {
    outcome: {
      status: blocked ? 'sanctioned' : 'review',
      score: top.score,
      source: top.sourceDataset,
      details: `${top.label}: ${top.matchedName} (${top.sourceDataset}, ${top.id}) at ${(top.score * 100).toFixed(1)}%`,
    },
    matches: all,
  };
}

/**
 * Screens monitored entities through the screening service with each client's feeds and
 * thresholds, records their status, and raises alerts (with their webhook deliveries, in the
 * same transaction), then pushes the new alerts live.
 */
@Injectable()
export class ChecksService {
  private readonly logger = new Logger(ChecksService.name);

  constructor(
    private readonly checks: ChecksRepository,
    private readonly clients: MonitoringClientsRepository,
    private readonly screening: ScreeningAdapter,
    private readonly alerts: AlertsRepository,
    private readonly webhooks: WebhooksRepository,
    private readonly push: PushPublisher,
  ) {}

  /**
   * A scheduled or manual check. Entities whose screening fails are marked unknown and retried
   * later; the others are recorded with their alerts. Returns the alerts raised per entity.
   */
  async check(targets: readonly CheckTarget[]): Promise<Map<string, MonitoringAlert[]>> {
    const raised = new Map<string, MonitoringAlert[]>();
    const snapshots = await this.clients.many([...new Set(targets.map((t) => t.clientId))]);
    for (const [clientId, group] of groupByClient(targets)) {
      const client = snapshots.get(clientId);
      let screened: Screened[];
      try {
        if (!client) throw new Error(`no snapshot of client ${clientId}`);
        screened = await this.screen(client, group);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        this.logger.warn(`check of ${group.length} entities of ${clientId} failed: ${why}`);
        await this.checks.recordFailure(
          group.map((t) => t.id),
          FAILED_CHECK_RETRY_MS,
          'The screening service did not answer; the check will be retried.',
        );
        continue;
      }
      const alerts = await this.checks.transaction(async (tx) => {
        await this.checks.recordOutcomes(
          tx,
          screened.map((s) => ({ id: s.target.id, outcome: s.outcome })),
        );
        return this.raiseAll(tx, client!, screened, null);
      });
      for (const alert of alerts) {
        const list = raised.get(alert.entity_id!);
        if (list) list.push(alert);
        else raised.set(alert.entity_id!, [alert]);
      }
      this.push.alerts(clientId, alerts);
    }
    return raised;
  }

  /**
   * Re-screens entities a list version's delta could match. Each entity is marked done for the
   * version in the same transaction as its alerts, and those already marked are skipped, so a
   * redelivery (or a restart half-way) raises every alert exactly once. Throws when screening
   * fails, or still serves an older version of the source, so that the event is redelivered.
   */
  async rescreen(targets: readonly CheckTarget[], delta: DeltaContext): Promise<number> {
    let count = 0;
    const snapshots = await this.clients.many([...new Set(targets.map((t) => t.clientId))]);
    for (const [clientId, group] of groupByClient(targets)) {
      const client = snapshots.get(clientId);
      if (!client || !client.settings.rescreen_on_list_update) continue;
      const done = await this.checks.alreadyRescreened(
        delta.source,
        delta.versionId,
        group.map((t) => t.id),
      );
      const todo = group.filter((t) => !done.has(t.id));
      if (todo.length === 0) continue;
      const screened = await this.screen(client, todo, delta);
      const alerts = await this.checks.transaction(async (tx) => {
        const fresh = await this.checks.markRescreened(
          tx,
          delta.source,
          delta.versionId,
          todo.map((t) => t.id),
        );
        const mine = screened.filter((s) => fresh.has(s.target.id));
        await this.checks.recordOutcomes(
          tx,
          mine.map((s) => ({ id: s.target.id, outcome: s.outcome })),
        );
        return this.raiseAll(tx, client, mine, delta);
      });
      count += alerts.length;
      this.push.alerts(clientId, alerts);
    }
    return count;
  }

  private async screen(
    client: ClientSnapshot,
    targets: readonly CheckTarget[],
    delta?: DeltaContext,
  ): Promise<Screened[]> {
    const names: string[] = [];
    const spans: Array<[number, number]> = [];
    for (const t of targets) {
      const own = [t.entityName, ...t.aliases.filter((a) => a.trim() !== '')];
      spans.push([names.length, names.length + own.length]);
      names.push(...own);
    }
    const { items, listVersions } = await this.screening.bulk(client, names, checkScreeningIds(targets, delta));
    if (delta) {
      const served = listVersions.find((v) => v.source === delta.source);
      if (served && served.versionId < delta.versionId) {
        throw new Error(`screening still serves ${delta.source} v${served.versionId}, not v${delta.versionId}`);
      }
    }
    return targets.map((target, i) => ({ target, ...outcomeOf(items.slice(spans[i]![0], spans[i]![1])) }));
  }

  private async raiseAll(
    tx: Transaction,
    client: ClientSnapshot,
    screened: readonly Screened[],
    delta: DeltaContext | null,
  ): Promise<MonitoringAlert[]> {
    const raised: MonitoringAlert[] = [];
    for (const { target, matches } of screened) {
      for (const m of matches) {
        if (m.status === 'clear' || (m.status === 'review' && !client.settings.alert_on_review)) continue;
        const type = !delta
          ? 'check_match'
          : delta.added.has(m.id)
            ? 'new_match'
            : delta.changed.has(m.id)
              ? 'changed_match'
              : null;
        // A re-screen raises only what the delta brought; other matches were raised by earlier checks.
        if (!type) continue;
        const match: MatchToRaise = {
          clientId: client.clientId,
          monitoredEntityId: target.id,
          entityName: target.entityName,
          matchedEntityId: m.id,
          matchedName: m.matchedName,
          score: m.score,
          status: m.status,
          source: m.sourceDataset,
          type,
          listSource: delta?.source ?? null,
          versionId: delta?.versionId ?? null,
        };
        const alert = await this.alerts.raise(tx, match);
        if (!alert) continue;
        await this.webhooks.enqueue(tx, client.clientId, 'monitoring.alert', `alert:${alert.id}`, alert);
        raised.push(alert);
      }
    }
    return raised;
  }
}

function groupByClient(targets: readonly CheckTarget[]): Map<string, CheckTarget[]> {
  const groups = new Map<string, CheckTarget[]>();
  for (const t of targets) {
    const group = groups.get(t.clientId);
    if (group) group.push(t);
    else groups.set(t.clientId, [t]);
  }
  return groups;
}

/**
 * The screening ids of one check's names, the same each time that check runs: a replica that dies
 * after screening but before recording the outcome leaves the check due (its lease expires), and
 * the rerun must find the logs already written, not add a second set (found by test:resilience:
 * an uploaded list's entries screened twice across a monitoring SIGKILL). A scheduled check is
 * named by its due time, a re-screen by the list version; a manual check gets random ids.
 */
function checkScreeningIds(targets: readonly CheckTarget[], delta?: DeltaContext): string[] | undefined {
  const keyOf = (t: CheckTarget) => (delta ? `rescreen:${delta.source}:${delta.versionId}` : t.due ? `check:${t.due}` : undefined);
  if (!targets.every((t) => keyOf(t) !== undefined)) return undefined;
  return targets.flatMap((t) =>
    [t.entityName, ...t.aliases.filter((a) => a.trim() !== '')].map((_, k) => nameBasedUuid(`vigil-monitoring:${t.id}:${keyOf(t)}:${k}`)),
  );
}

function nameBasedUuid(text: string): string {
  const bytes = createHash('sha1').update(text).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
