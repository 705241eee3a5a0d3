import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DomainError, type HealthIndicator } from '@vigil/platform';
import { listsUpdatedEventSchema, streams, subjects, type Feed } from '@vigil/proto';
import { SCREENING_CONFIG } from '../config.token.js';
import type { ScreeningConfig } from '../env.js';
import { JetStreamAdapter } from '../events/jetstream.adapter.js';
import { EngineUnavailableError, type CandidateIndex, type EngineMatch, type EngineQuery, type PartitionInfo } from './candidate-index.js';
import { IndexRepository, type IndexableSource } from './index.repository.js';
import { CANDIDATE_INDEX } from './index.tokens.js';

const RETRY_AFTER_SECONDS = 5;

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
  private readonly syncing = new Map<string, Promise<void>>();
  private readonly resync = new Set<string>();
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
      this.logger.warn(`not following ${subjects.lists.updated} (the periodic reconcile still catches up): ${error instanceof Error ? error.message : String(error)}`);
    }
    while (!this.stopped) {
      try {
        const started = performance.now();
        await this.reconcile();
        this.initialised = true;
        this.logger.log(`index ready (${this.engine.engine}): ${this.describe()} in ${Math.round(performance.now() - started)} ms`);
        break;
      } catch (error) {
        this.logger.warn(`loading the index failed, retrying: ${error instanceof Error ? error.message : String(error)}`);
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
    if (this.stopped) return;
    this.timer = setInterval(() => void this.reconcile().catch((e: unknown) => this.logger.warn(`reconcile failed: ${String(e)}`)), this.config.INDEX_RECONCILE_SECONDS * 1000);
    this.timer.unref();
  }

  private describe(): string {
    const parts = this.engine.partitions().map((p) => `${p.source}@v${p.versionId} (${p.entityCount})`);
    return parts.length ? parts.join(', ') : 'no list versions yet';
  }

  /** Loads what is current and missing, drops what is no longer served. */
  async reconcile(): Promise<void> {
    this.sources = await this.repository.enabledSources();
    const loaded = new Map(this.engine.partitions().map((p) => [p.source, p.versionId]));
    for (const s of this.sources) {
      if (s.version && loaded.get(s.source) !== s.version.versionId) await this.sync(s.source);
    }
    const serving = new Set(this.sources.filter((s) => s.version).map((s) => s.source));
    for (const source of loaded.keys()) if (!serving.has(source)) await this.engine.remove(source);
  }

  /** Brings one source to its current version; concurrent calls for a source coalesce. */
  sync(source: string): Promise<void> {
    const running = this.syncing.get(source);
    if (running) {
      this.resync.add(source);
      return running;
    }
    const run = (async () => {
      do {
        this.resync.delete(source);
        const current = await this.repository.currentVersion(source);
        const loaded = this.engine.partitions().find((p) => p.source === source);
        if (!current) {
          if (loaded) await this.engine.remove(source);
        } else if (loaded?.versionId !== current.info.versionId) {
          const started = performance.now();
          try {
            await this.engine.load(current.info, current.entities);
            this.lastLoadError = undefined;
          } catch (error) {
            this.lastLoadError = `${source}: ${error instanceof Error ? error.message : String(error)}`;
            throw error;
          }
          this.logger.log(`${source}: serving version ${current.info.versionId} (${current.entities.length} entities, loaded in ${Math.round(performance.now() - started)} ms)`);
        }
        this.sources = this.sources.map((s) => (s.source === source ? { ...s, version: current?.info ?? null, checked: true } : s));
        if (!this.sources.some((s) => s.source === source) && current) {
          this.sources.push({ source, feed: current.info.feed, dataset: current.info.dataset, version: current.info, checked: true });
        }
      } while (this.resync.has(source));
    })().finally(() => this.syncing.delete(source));
    this.syncing.set(source, run);
    return run;
  }

  /**
   * The partitions a caller with these feeds may be screened against, or INDEX_UNAVAILABLE
   * when any of them is still loading, none is available, or the engine is down.
   */
  scopeFor(feeds: readonly Feed[]): Scope {
    const unavailable = (why: string) => new DomainError('INDEX_UNAVAILABLE', `The screening index is not ready: ${why}.`, undefined, RETRY_AFTER_SECONDS);
    if (!this.initialised) throw unavailable('it is still loading');
    const wanted = new Set(feeds);
    const loaded = new Map(this.engine.partitions().map((p) => [p.source, p]));
    const relevant = this.sources.filter((s) => wanted.has(s.feed));
    const pending = relevant.filter((s) => (s.version && !loaded.has(s.source)) || (!s.version && !s.checked));
    if (pending.length > 0) throw unavailable(`${pending.map((s) => s.source).join(', ')} still loading`);
    const versions = [...loaded.values()].filter((p) => wanted.has(p.feed)).sort((a, b) => (a.source < b.source ? -1 : 1));
    if (versions.length === 0) throw unavailable(`no list is loaded for ${[...wanted].join(', ')}`);
    return { sources: versions.map((v) => v.source), versions };
  }

  async screen(query: EngineQuery, scope: Scope, limit: number): Promise<EngineMatch[]> {
    try {
      return await this.engine.screen(query, { sources: scope.sources, limit });
    } catch (error) {
      throw this.engineError(error);
    }
  }

  async screenMany(queries: readonly EngineQuery[], scope: Scope, limit: number): Promise<EngineMatch[][]> {
    try {
      return await this.engine.screenMany(queries, { sources: scope.sources, limit });
    } catch (error) {
      throw this.engineError(error);
    }
  }

  private engineError(error: unknown): unknown {
    if (error instanceof EngineUnavailableError) return new DomainError('INDEX_UNAVAILABLE', 'The screening index cannot be searched right now.', undefined, RETRY_AFTER_SECONDS);
    return error;
  }

  get engineName() {
    return this.engine.engine;
  }

  /** The `index` health check: down while loading or when the engine cannot answer. */
  healthIndicator(): HealthIndicator {
    return {
      name: 'index',
      check: async () => {
        if (!this.initialised) return { status: 'down', detail: 'loading' };
        const engine = await this.engine.health();
        if (!engine.up) return { status: 'down', detail: engine.detail ?? 'engine down' };
        return { status: 'up', detail: `${this.engine.engine}: ${this.describe()}${this.lastLoadError ? `; last load failed: ${this.lastLoadError}` : ''}` };
      },
    };
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.engine.close();
  }
}
