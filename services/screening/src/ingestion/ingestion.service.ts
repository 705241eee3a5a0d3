import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { defineCounter, defineHistogram } from '@vigil/platform';
import type { RefreshOutcome } from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sep } from 'node:path';
import { SCREENING_CONFIG } from '../config.token.js';
import type { ScreeningConfig } from '../env.js';
import { OutboxRelay } from '../events/outbox.relay.js';
import { OutboxRepository } from '../events/outbox.repository.js';
import { IndexService } from '../index/index.service.js';
import type { SourceDefinition } from '../sources/source.js';
import { resolveDefinitions } from '../sources/sources.discovery.js';
import { SourcesRepository, type SourceState } from '../sources/sources.repository.js';
import { computeDelta, toRecord } from './delta.js';
import { IngestionError, LeaseLost } from './ingestion.errors.js';
import { listsUpdatedMessage, refreshFailedMessage } from './ingestion.events.js';
import { IngestionRepository } from './ingestion.repository.js';
import { ListFetcher } from './list-fetcher.js';
import { parseFetched, parserVersion } from './list-parser.js';

export type RefreshTrigger = 'startup' | 'schedule' | 'admin';

/** A failed source is retried sooner than its normal cadence. */
const FAILED_RETRY_MINUTES = 15;
/** How long a stopping process waits for the refresh in hand to reach a point where it can let go. */
const STOP_WAIT_MS = 20_000;

/** The process is stopping: the refresh in hand gives its lease back at its next stage instead of going on. */
class Stopping extends Error {}

/**
 * Brings list sources up to date: fetch, skip when the bytes are unchanged, parse, check,
 * compute the delta against the live entities and commit a new version with its
 * lists.v1.updated event. Any failure keeps the current version serving and records the
 * failure with a lists.v1.refresh-failed event.
 */

const ingestionRuns = defineCounter({
  name: 'vigil_list_ingestions_total',
  help: 'List refreshes by source, outcome (updated, unchanged, failed, busy) and trigger',
  labelNames: ['source', 'outcome', 'trigger'],
});
const ingestionDuration = defineHistogram({
  name: 'vigil_list_ingestion_duration_seconds',
  help: 'How long a list refresh took, by source and outcome',
  labelNames: ['source', 'outcome'],
  buckets: [0.1, 0.5, 1, 5, 15, 60, 180, 600],
});

@Injectable()
export class IngestionService implements OnModuleDestroy {
  private readonly logger = new Logger(IngestionService.name);
  private readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  // Parsing is CPU-bound: one source at a time per process keeps screening responsive.
  private queue: Promise<unknown> = Promise.resolve();
  private stopping = false;

  constructor(
    @Inject(SCREENING_CONFIG) private readonly config: ScreeningConfig,
    private readonly fetcher: ListFetcher,
    private readonly sources: SourcesRepository,
    private readonly ingestion: IngestionRepository,
    private readonly outbox: OutboxRepository,
    private readonly relay: OutboxRelay,
    private readonly index: IndexService,
  ) {}

  /**
   * A stop (SIGTERM, a rolling deploy) in the middle of a pass must not leave a source leased
   * to a process that is gone: the next start would find it "updating" and skip it. The refresh
   * in hand lets go at its next stage (a commit already under way finishes), and every lease
   * this process still holds is given back while the database is still open.
   */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    const settled = this.queue.then(() => true);
    const waited = await Promise.race([settled, new Promise<false>((resolve) => setTimeout(resolve, STOP_WAIT_MS, false).unref())]);
    if (!waited) this.logger.warn(`a list refresh was still running after ${STOP_WAIT_MS} ms; giving its lease back`);
    await this.ingestion.releaseLeases(this.owner).catch((e: unknown) => this.logger.error(`could not give the refresh leases back: ${String(e)}`));
  }

  /** Refreshes the configured sources: all of them (admin), `only` those named, or those due (scheduler). */
  async refreshAll(trigger: RefreshTrigger, only?: readonly string[], force = false): Promise<RefreshOutcome[]> {
    // One index build for the whole pass instead of one per updated source.
    this.index.hold();
    let released = false;
    try {
      const outcomes = await this.refreshPass(trigger, only, force);
      for (const o of outcomes) {
        ingestionRuns.inc({ source: o.source, outcome: o.outcome, trigger });
        ingestionDuration.observe({ source: o.source, outcome: o.outcome }, o.durationMs / 1000);
      }
      const built = this.index.release();
      released = true;
      // An admin refresh answers once the new versions are searchable; a scheduled pass does not wait.
      if (trigger === 'admin') await built.catch((e: unknown) => this.logger.error(`index build after refresh failed: ${String(e)}`));
      else built.catch((e: unknown) => this.logger.error(`index build after refresh failed: ${String(e)}`));
      return outcomes;
    } finally {
      if (!released) void this.index.release().catch(() => undefined);
    }
  }

  private async refreshPass(trigger: RefreshTrigger, only: readonly string[] | undefined, force: boolean): Promise<RefreshOutcome[]> {
    // The recorded states from before this pass's sync: they still hold the locations the versions came from.
    const states = new Map((await this.sources.all()).map((s) => [s.source, s]));
    const { definitions, missing } = await this.resolve();
    const outcomes: RefreshOutcome[] = [];
    const byName = new Map(definitions.map((d) => [d.source, d]));
    const wanted = (source: string) => {
      if (only) return only.includes(source);
      if (trigger === 'admin' || this.isDue(states.get(source))) return true;
      const definition = byName.get(source);
      return trigger === 'startup' && definition !== undefined && startupMustCheck(definition, states.get(source));
    };
    for (const name of only ?? []) {
      if (!definitions.some((d) => d.source === name) && !missing.some((m) => m.source === name)) {
        outcomes.push({ source: name, outcome: 'failed', versionId: null, delta: null, error: 'no such source is configured', durationMs: 0 });
      }
    }
    for (const state of missing.filter((m) => wanted(m.source))) outcomes.push(await this.recordMissing(state, trigger));
    for (const definition of definitions.filter((d) => wanted(d.source))) {
      if (this.stopping) break;
      const recorded = states.get(definition.source)?.files.map((f) => f.location);
      outcomes.push(await this.refresh(definition, trigger, force, recorded));
    }
    return outcomes;
  }

  /** Due by its cadence: never checked, or checked longer ago than its refresh interval (sooner after a failure). */
  private isDue(state: SourceState | undefined): boolean {
    if (!state?.lastCheckedAt) return true;
    const failedLast = state.lastErrorAt !== null && (!state.version || state.lastErrorAt >= state.version.fetchedAt);
    const minutes = failedLast ? Math.min(FAILED_RETRY_MINUTES, state.refreshMinutes) : state.refreshMinutes;
    return Date.now() - state.lastCheckedAt.getTime() >= minutes * 60_000;
  }

  /**
   * The configured sources, recorded in Postgres. In dir mode a source that was found in
   * LISTS_DIR before but is not now stays enabled and serving: its disappearance is a
   * failure to report, never a silent delisting.
   */
  private async resolve(): Promise<{ definitions: SourceDefinition[]; missing: SourceState[] }> {
    let definitions: SourceDefinition[] = [];
    try {
      definitions = (await resolveDefinitions(this.config)).definitions;
    } catch (error) {
      this.logger.error(`cannot read list sources: ${error instanceof Error ? error.message : String(error)}`);
    }
    let missing: SourceState[] = [];
    if (this.config.LISTS_SOURCE === 'dir') {
      const found = new Set(definitions.map((d) => d.source));
      const prefix = this.config.LISTS_DIR.endsWith(sep) ? this.config.LISTS_DIR : this.config.LISTS_DIR + sep;
      missing = (await this.sources.all()).filter((s) => s.enabled && !found.has(s.source) && s.files.some((f) => f.location.startsWith(prefix)));
    }
    await this.sources.sync(
      definitions,
      missing.map((m) => m.source),
    );
    return { definitions, missing };
  }

  private async recordMissing(state: SourceState, trigger: RefreshTrigger): Promise<RefreshOutcome> {
    const error = `no ${state.format} file for ${state.source} under ${this.config.LISTS_DIR} any more (was ${state.location})`;
    await this.ingestion.recordFailure(
      { source: state.source, stage: 'fetch', error, sha256: null, servingVersionId: state.version?.id ?? null, trigger },
      refreshFailedMessage(state, 'fetch', error, state.version?.id ?? null),
      (sql, messages) => this.outbox.add(sql, messages),
    );
    await this.ingestion.markChecked(state.source);
    this.relay.nudge();
    this.logger.warn(`${state.source}: ${error}; version ${state.version?.id ?? 'none'} keeps serving`);
    return { source: state.source, outcome: 'failed', versionId: state.version?.id ?? null, delta: null, error, durationMs: 0 };
  }

  /**
   * Refreshes one source now (queued behind any refresh already running in this process).
   * `recordedLocations`: where the source was configured before this pass, for a version
   * that predates recorded locations.
   */
  refresh(definition: SourceDefinition, trigger: RefreshTrigger, force = false, recordedLocations?: readonly string[]): Promise<RefreshOutcome> {
    const run = this.queue.then(() => this.refreshNow(definition, trigger, force, recordedLocations));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async refreshNow(
    definition: SourceDefinition,
    trigger: RefreshTrigger,
    force: boolean,
    recordedLocations: readonly string[] | undefined,
  ): Promise<RefreshOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const source = definition.source;
    if (this.stopping) return { source, outcome: 'busy', versionId: null, delta: null, error: 'the service is stopping', durationMs: elapsed() };
    const leaseSeconds = this.config.LISTS_LEASE_SECONDS;
    const lease = await this.ingestion.acquireLease(source, this.owner, leaseSeconds);
    if (!lease) return { source, outcome: 'busy', versionId: null, delta: null, error: 'another replica is refreshing this source', durationMs: elapsed() };
    // The holder renews its lease while it works, so a crashed replica's lease lapses within one
    // lease instead of pinning the source as "updating" for the length of the longest refresh.
    let taken = false;
    const renewal = setInterval(() => {
      this.ingestion
        .renewLease(source, this.owner, leaseSeconds)
        .then((held) => {
          if (!held) taken = true;
        })
        .catch((e: unknown) => this.logger.warn(`${source}: could not renew the refresh lease: ${String(e)}`));
    }, this.config.LISTS_LEASE_RENEW_SECONDS * 1000);
    renewal.unref();
    const goOn = () => {
      if (this.stopping) throw new Stopping();
      // Its commit would be refused: it leaves off at its next stage.
      if (taken) throw new LeaseLost();
    };
    let sha256: string | null = null;
    try {
      const fetchedAt = new Date();
      const fetched = await this.fetcher.fetch(definition);
      goOn();
      sha256 = fetched.sha256;
      if (fetched.sha256 === lease.currentSha256) {
        await this.ingestion.releaseLease(source, this.owner, true);
        this.logger.log(`${source}: unchanged (sha256 ${fetched.sha256.slice(0, 12)}), version ${lease.currentVersionId} stays`);
        return { source, outcome: 'unchanged', versionId: lease.currentVersionId, delta: null, error: null, durationMs: elapsed() };
      }
      // The guards below catch a bad fetch of the same files (a lost companion, a truncated
      // download). A source whose files all come from somewhere else now (a new LISTS_DIR,
      // another URL) is the operator's choice of other files: its first version there is taken as it is.
      const previous = lease.currentLocations ?? recordedLocations;
      const moved = lease.currentVersionId !== null && previous !== undefined && movedAway(previous, definition.files.map((f) => f.location));
      if (moved) this.logger.log(`${source}: moved from ${previous!.join(', ')} to ${definition.files.map((f) => f.location).join(', ')}`);
      const lost = moved ? [] : lease.currentFiles.filter((name) => !fetched.files.some((f) => f.name === name));
      if (lost.length > 0 && !force) {
        // A missing alias or address file would silently strip data from every entity.
        throw new IngestionError('validate', `${lost.join(', ')} of the current version ${lost.length === 1 ? 'is' : 'are'} missing; refresh with force to accept a version without ${lost.length === 1 ? 'it' : 'them'}`);
      }
      const parsed = await parseFetched(definition, fetched);
      goOn();
      const before = lease.currentEntityCount;
      if (!force && !moved && before !== null && parsed.entities.length < before * (1 - this.config.LISTS_MAX_SHRINK)) {
        throw new IngestionError(
          'validate',
          `the new file would shrink the list from ${before} to ${parsed.entities.length} entities (more than ${Math.round(this.config.LISTS_MAX_SHRINK * 100)}%); refusing it as probably truncated`,
        );
      }
      const records = parsed.entities.map(toRecord);
      const delta = computeDelta(await this.ingestion.liveHashes(source), records);
      goOn();
      const versionId = await this.ingestion.commitVersion(
        this.owner,
        {
          source,
          previousVersionId: lease.currentVersionId,
          fetchedAt,
          sha256: fetched.sha256,
          fileSize: fetched.totalBytes,
          files: fetched.files.map((f) => ({
            name: f.name,
            sha256: f.sha256,
            bytes: f.bytes,
            location: definition.files.find((d) => d.name === f.name)?.location ?? '',
          })),
          format: definition.format,
          parserVersion: await parserVersion(),
          duplicates: parsed.duplicates,
          trigger,
        },
        records,
        delta,
        (id) =>
          listsUpdatedMessage(
            definition,
            { versionId: id, previousVersionId: lease.currentVersionId, sha256: fetched.sha256, entityCount: records.length, fetchedAt },
            delta,
          ),
        (sql, messages) => this.outbox.add(sql, messages),
      );
      this.relay.nudge();
      // This replica does not wait for its own event to update its index (built when the pass ends).
      void this.index.sync(source).catch(() => undefined);
      this.logger.log(
        `${source}: version ${versionId} (${records.length} entities; +${delta.added.length} ~${delta.changed.length} -${delta.removed.length}) in ${elapsed()} ms`,
      );
      return {
        source,
        outcome: 'updated',
        versionId,
        delta: { added: delta.added.length, changed: delta.changed.length, removed: delta.removed.length },
        error: null,
        durationMs: elapsed(),
      };
    } catch (error) {
      if (error instanceof Stopping) {
        // Not a failure of the list: the next start (or another replica) takes it up again.
        await this.ingestion.releaseLease(source, this.owner, false).catch(() => undefined);
        this.logger.log(`${source}: refresh left off, the service is stopping; version ${lease.currentVersionId ?? 'none'} keeps serving`);
        return { source, outcome: 'busy', versionId: lease.currentVersionId, delta: null, error: 'the service is stopping', durationMs: elapsed() };
      }
      if (error instanceof LeaseLost) {
        // Nor this, whether found by a renewal or by the commit's own fencing: the holder that took
        // the lease refreshes the source, and the lease is no longer ours to give back.
        this.logger.warn(`${source}: refresh left off, ${error.message}; version ${lease.currentVersionId ?? 'none'} keeps serving`);
        return { source, outcome: 'busy', versionId: lease.currentVersionId, delta: null, error: error.message, durationMs: elapsed() };
      }
      const stage = error instanceof IngestionError ? error.stage : 'store';
      const message = error instanceof Error ? error.message : String(error);
      try {
        await this.ingestion.recordFailure(
          { source, stage, error: message, sha256, servingVersionId: lease.currentVersionId, trigger },
          refreshFailedMessage(definition, stage, message, lease.currentVersionId),
          (sql, messages) => this.outbox.add(sql, messages),
        );
        this.relay.nudge();
      } catch (recordError) {
        this.logger.error(`${source}: could not record the failure: ${recordError instanceof Error ? recordError.message : String(recordError)}`);
      }
      await this.ingestion.releaseLease(source, this.owner, true).catch(() => undefined);
      this.logger.warn(`${source}: refresh failed at ${stage}: ${message}; version ${lease.currentVersionId ?? 'none'} keeps serving`);
      return { source, outcome: 'failed', versionId: lease.currentVersionId, delta: null, error: message, durationMs: elapsed() };
    } finally {
      clearInterval(renewal);
    }
  }
}

const isUrl = (location: string) => /^https?:\/\//i.test(location);

/**
 * Whether the pass at boot checks a source its cadence does not make due yet: one whose
 * files now come from somewhere else (LISTS_DIR or a URL changed), or whose files are local,
 * where the checksum costs one read and an edited file must not wait for the cadence.
 * An unchanged checksum still ends as a no-op.
 */
export function startupMustCheck(definition: SourceDefinition, state: SourceState | undefined): boolean {
  if (!state?.version) return true;
  const recorded = state.files.map((f) => `${f.name}\u0000${f.location}`).join('\n');
  const configured = definition.files.map((f) => `${f.name}\u0000${f.location}`).join('\n');
  return recorded !== configured || definition.files.some((f) => !isUrl(f.location));
}

/** None of the files is read from where the current version's were: the source moved (not a lost companion). */
function movedAway(previous: readonly string[], configured: readonly string[]): boolean {
  return previous.length > 0 && !configured.some((location) => previous.includes(location));
}
