import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DomainError, type HealthIndicator, gaugeFrom } from '@vigil/platform';
import { listsUpdatedEventSchema, streams, subjects, type Feed } from '@vigil/proto';
import type { QueryTunables } from '@vigil/matching';
import { SCREENING_CONFIG } from '../config.token.js';
import type { ScreeningConfig } from '../env.js';
import { JetStreamAdapter } from '../events/jetstream.adapter.js';
import {
  EngineUnavailableError,
  type CandidateIndex,
  type EngineMatch,
  type EngineQuery,
  type PartitionInfo,
  type PartitionLoad,
} from './candidate-index.js';
import { IndexRepository, type IndexableSource } from './index.repository.js';
import { CANDIDATE_INDEX } from './index.tokens.js';

const RETRY_AFTER_SECONDS = 5;
/** A burst of list versions is built once this long after the last one... */
const SYNC_QUIET_MS = 500;
/** ...but never later than this after the first. */
const SYNC_MAX_DEFER_MS = 5000;

export type Scope = { sources: string[]; versions: PartitionInfo[] };

/**
 * Keeps this replica's index equal to what Postgres says is current: built at start,
 * then updated from lists.v1.updated events and a periodic reconcile that catches any
 * event missed. Screens go through here, and are refused with INDEX_UNAVAILABLE rather
 * than answered from an index that cannot look at every list the caller is owed.
 */
@Injectable()
export class IndexService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(IndexService.name);
  private initialised = false;
  private sources: IndexableSource[] = [];
  private readonly pending = new Set<string>();
  private waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  private pumping: Promise<void> | null = null;
  private holds = 0;
  private immediate = false;
  private lastRequestAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private lastLoadError: string | undefined;

  constructor(
    @Inject(SCREENING_CONFIG) private readonly config: ScreeningConfig,
    @Inject(CANDIDATE_INDEX) private readonly engine: CandidateIndex,
    private readonly repository: IndexRepository,
    private readonly jetstream: JetStreamAdapter,
  ) {}

  onApplicationBootstrap(): void {
    // Index size per source (the versions answering now), read at scrape time.
    gaugeFrom(
      'vigil_index_entities',
      'Entities in the screening index, by source and list version',
      ['source', 'version', 'engine'],
      () =>
        this.engine.partitions().map((p) => ({
          labels: { source: p.source, version: String(p.versionId), engine: this.engine.engine },
          value: p.entityCount,
        })),
    );
    // Not awaited: the service answers (INDEX_UNAVAILABLE, health) while the index loads.
    void this.start();
  }

  private async start(): Promise<void> {
    try {
      await this.jetstream.follow(streams.lists.name, subjects.lists.updated, async (payload) => {
        const event = listsUpdatedEventSchema.safeParse(payload);
        if (event.success) await this.sync(event.data.source);
      });
      this.logger.log(`following ${subjects.lists.updated}`);
    } catch (error) {
      this.logger.warn(
        `not following ${subjects.lists.updated} (the periodic reconcile still catches up): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    while (!this.stopped) {
      try {
        const started = performance.now();
        await this.reconcile();
        this.initialised = true;
        this.logger.log(
          `index ready (${this.engine.engine}): ${this.describe()} in ${Math.round(performance.now() - started)} ms`,
        );
        break;
      } catch (error) {
        this.logger.warn(
          `loading the index failed, retrying: ${error instanceof Error ? error.message : String(error)}`,
        );
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
    if (this.stopped) return;
    this.timer = setInterval(
      () => void this.reconcile().catch((e: unknown) => this.logger.warn(`reconcile failed: ${String(e)}`)),
      this.config.INDEX_RECONCILE_SECONDS * 1000,
    );
    this.timer.unref();
  }

  private describe(): string {
    const parts = this.engine.partitions().map((p) => `${p.source}@v${p.versionId} (${p.entityCount})`);
    return parts.length ? parts.join(', ') : 'no list versions yet';
  }

  /** Loads what is current and missing (in one engine build), drops what is no longer served. */
  async reconcile(): Promise<void> {
    this.sources = await this.repository.enabledSources();
    const loaded = new Map(this.engine.partitions().map((p) => [p.source, p.versionId]));
    const stale = this.sources
      .filter((s) => s.version && loaded.get(s.source) !== s.version.versionId)
      .map((s) => s.source);
    if (stale.length > 0) await this.requestSync(stale, false);
    const serving = new Set(this.sources.filter((s) => s.version).map((s) => s.source));
    for (const source of loaded.keys()) if (!serving.has(source)) await this.engine.remove(source);
  }

  /**
   * Brings sources to their current versions. Requests are coalesced: each engine build is
   * CPU work over every loaded list, so a burst of list versions (a refresh pass, events
   * from another replica) becomes one build after a quiet moment, and none runs while this
   * process holds the index for its own refresh pass.
   */
  sync(source: string): Promise<void> {
    return this.requestSync([source], true);
  }

  private requestSync(sources: readonly string[], debounce: boolean): Promise<void> {
    for (const source of sources) this.pending.add(source);
    this.lastRequestAt = Date.now();
    if (!debounce) this.immediate = true;
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.kick();
    return done;
  }

  /** Defers index builds (e.g. during a refresh pass) until the matching release(). */
  hold(): void {
    this.holds++;
  }

  /** Ends a hold; resolves once everything requested meanwhile is built. */
  release(): Promise<void> {
    this.holds = Math.max(0, this.holds - 1);
    if (this.holds > 0 || this.pending.size === 0) return this.pumping ?? Promise.resolve();
    return this.requestSync([], false);
  }

  private kick(): void {
    if (this.pumping || this.holds > 0 || this.pending.size === 0 || this.stopped) return;
    this.pumping = this.pump().finally(() => {
      this.pumping = null;
      this.kick();
    });
  }

  private async pump(): Promise<void> {
    const started = Date.now();
    while (
      !this.immediate &&
      Date.now() - this.lastRequestAt < SYNC_QUIET_MS &&
      Date.now() - started < SYNC_MAX_DEFER_MS
    ) {
      await new Promise((r) => setTimeout(r, 50));
    }
    this.immediate = false;
    if (this.holds > 0) return;
    const batch = [...this.pending];
    this.pending.clear();
    const waiters = this.waiters.splice(0);
    try {
      await this.syncNow(batch);
      waiters.forEach((w) => w.resolve());
    } catch (error) {
      waiters.forEach((w) => w.reject(error));
    }
  }

  private async syncNow(sources: readonly string[]): Promise<void> {
    const loaded = new Map(this.engine.partitions().map((p) => [p.source, p.versionId]));
    const loads: PartitionLoad[] = [];
    const gone: string[] = [];
    for (const source of sources) {
      const current = await this.repository.currentVersion(source);
      if (!current) {
        if (loaded.has(source)) gone.push(source);
      } else if (loaded.get(source) !== current.info.versionId) {
        loads.push(current);
      }
      this.sources = this.sources.map((s) =>
        s.source === source ? { ...s, version: current?.info ?? null, checked: true } : s,
      );
      if (current && !this.sources.some((s) => s.source === source)) {
        this.sources.push({
          source,
          feed: current.info.feed,
          dataset: current.info.dataset,
          version: current.info,
          checked: true,
        });
      }
    }
    for (const source of gone) await this.engine.remove(source);
    if (loads.length === 0) return;
    const started = performance.now();
    try {
      await this.engine.load(loads);
      this.lastLoadError = undefined;
    } catch (error) {
      this.lastLoadError = `${loads.map((l) => l.info.source).join(', ')}: ${error instanceof Error ? error.message : String(error)}`;
      throw error;
    }
    const ms = Math.round(performance.now() - started);
    for (const l of loads)
      this.logger.log(`${l.info.source}: serving version ${l.info.versionId} (${l.entities.length} entities)`);
    const total = this.engine.partitions().reduce((n, p) => n + p.entityCount, 0);
    this.logger.log(
      `index built in ${ms} ms (${this.engine.engine}; ${loads.length} new versions; ${this.engine.partitions().length} sources, ${total} entities)`,
    );
  }

  /**
   * The partitions a caller with these feeds may be screened against, or INDEX_UNAVAILABLE
   * when any of them is still loading, none is available, or the engine is down.
   */
  scopeFor(feeds: readonly Feed[]): Scope {
    const unavailable = (why: string) =>
      new DomainError('INDEX_UNAVAILABLE', `The screening index is not ready: ${why}.`, undefined, RETRY_AFTER_SECONDS);
    if (!this.initialised) throw unavailable('it is still loading');
    const wanted = new Set(feeds);
    const loaded = new Map(this.engine.partitions().map((p) => [p.source, p]));
    const relevant = this.sources.filter((s) => wanted.has(s.feed));
    const pending = relevant.filter((s) => (s.version && !loaded.has(s.source)) || (!s.version && !s.checked));
    if (pending.length > 0) throw unavailable(`${pending.map((s) => s.source).join(', ')} still loading`);
    const versions = [...loaded.values()]
      .filter((p) => wanted.has(p.feed))
      .sort((a, b) => (a.source < b.source ? -1 : 1));
    if (versions.length === 0) throw unavailable(`no list is loaded for ${[...wanted].join(', ')}`);
    return { sources: versions.map((v) => v.source), versions };
  }

  async screen(
    query: EngineQuery,
    scope: Scope,
    limit: number,
    tunables?: QueryTunables,
    algorithm?: string,
  ): Promise<EngineMatch[]> {
    try {
      return await this.engine.screen(query, {
        sources: scope.sources,
        limit,
        ...(tunables ? { tunables } : {}),
        ...(algorithm ? { algorithm } : {}),
      });
    } catch (error) {
      throw this.engineError(error);
    }
  }

  async screenMany(
    queries: readonly EngineQuery[],
    scope: Scope,
    limit: number,
    tunables?: QueryTunables,
    algorithm?: string,
  ): Promise<EngineMatch[][]> {
    try {
      return await this.engine.screenMany(queries, {
        sources: scope.sources,
        limit,
        ...(tunables ? { tunables } : {}),
        ...(algorithm ? { algorithm } : {}),
      });
    } catch (error) {
      throw this.engineError(error);
    }
  }

  private engineError(error: unknown): unknown {
    if (error instanceof EngineUnavailableError)
      return new DomainError(
        'INDEX_UNAVAILABLE',
        'The screening index cannot be searched right now.',
        undefined,
        RETRY_AFTER_SECONDS,
      );
    return error;
  }

  get engineName() {
    return this.engine.engine;
  }

  /** The list version this replica's index answers from, by source. */
  indexedVersions(): Map<string, number> {
    return new Map(this.engine.partitions().map((p) => [p.source, p.versionId]));
  }

  /** The `index` health check: down while loading or when the engine cannot answer. */
  healthIndicator(): HealthIndicator {
    return {
      name: 'index',
      check: async () => {
        if (!this.initialised) return { status: 'down', detail: 'loading' };
        const engine = await this.engine.health();
        if (!engine.up) return { status: 'down', detail: engine.detail ?? 'engine down' };
        return {
          status: 'up',
          detail: `${this.engine.engine}: ${this.describe()}${this.lastLoadError ? `; last load failed: ${this.lastLoadError}` : ''}`,
        };
      },
    };
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.engine.close();
  }
}
