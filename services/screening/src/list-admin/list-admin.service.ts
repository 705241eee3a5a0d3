import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@vigil/platform';
import type { AdminList, AdminListsResponse, ListVersionsResponse, TotalSearchesReply } from '@vigil/proto';
import { SCREENING_CONFIG } from '../config.token.js';
import type { ScreeningConfig } from '../env.js';
import { IndexService } from '../index/index.service.js';
import { SourcesRepository, type SourceState } from '../sources/sources.repository.js';
import { ListAdminRepository, type StoredFailure } from './list-admin.repository.js';

/** The admin console's view of list freshness and history. */
@Injectable()
export class ListAdminService {
  constructor(
    @Inject(SCREENING_CONFIG) private readonly config: ScreeningConfig,
    private readonly sources: SourcesRepository,
    private readonly history: ListAdminRepository,
    private readonly index: IndexService,
  ) {}

  async lists(now = new Date()): Promise<AdminListsResponse> {
    const [sources, failures] = await Promise.all([this.sources.all(), this.history.lastFailures()]);
    const indexed = this.index.indexedVersions();
    return {
      index: { engine: this.index.engineName },
      lists: sources.map((s) => ({
        ...this.toAdminList(s, failures.get(s.source), now),
        indexedVersion: indexed.get(s.source) ?? null,
      })),
    };
  }

  async versions(source: string, limit: number): Promise<ListVersionsResponse> {
    const state = await this.sources.get(source);
    if (!state) throw new DomainError('NOT_FOUND', `No list source ${source}.`);
    const versions = await this.history.versions(source, limit);
    return {
      source,
      versions: versions.map((v) => ({
        versionId: v.id,
        fetchedAt: v.fetchedAt.toISOString(),
        entityCount: v.entityCount,
        checksum: v.sha256,
        fileSize: v.fileSize,
        added: v.added,
        changed: v.changed,
        removed: v.removed,
        trigger: v.trigger,
        current: state.version?.id === v.id,
      })),
    };
  }

  async totalSearches(): Promise<TotalSearchesReply> {
    return { totalSearches: await this.history.totalSearches() };
  }

  private toAdminList(
    s: SourceState,
    failure: StoredFailure | undefined,
    now: Date,
  ): Omit<AdminList, 'indexedVersion'> {
    // A failure older than the version being served was followed by a good refresh: not news.
    const current = failure && (!s.version || failure.failedAt >= s.version.fetchedAt) ? failure : undefined;
    let nextRefreshAt: string | null = null;
    if (this.config.LISTS_SCHEDULER && s.enabled) {
      const due = s.lastCheckedAt ? new Date(s.lastCheckedAt.getTime() + s.refreshMinutes * 60_000) : now;
      nextRefreshAt = (due < now ? now : due).toISOString();
    }
    return {
      source: s.source,
      name: s.name,
      feed: s.feed,
      status: s.updating ? 'updating' : s.enabled && s.version ? 'active' : 'inactive',
      version: s.version?.id ?? null,
      entityCount: s.version?.entityCount ?? 0,
      checksum: s.version?.sha256 ?? null,
      lastSuccessAt: s.version?.fetchedAt.toISOString() ?? null,
      nextRefreshAt,
      refreshIntervalMinutes: s.refreshMinutes,
      lastFailure: current
        ? { at: current.failedAt.toISOString(), stage: current.stage, message: current.error }
        : null,
    };
  }
}
