import { Injectable } from '@nestjs/common';
import type { EntityType } from '@vigil/lists';
import { DEFAULT_CONFIG, DEFAULT_ALGORITHM } from '@vigil/matching';
import { currentRequestId, DomainError } from '@vigil/platform';
import {
  matchLabel,
  type BulkItem,
  type BulkScreenResponse,
  type ListVersionRef,
  type ParsedBulkScreenRequest,
  type ParsedScreenRequest,
  type ScreenResponse,
  type ScreenResult,
  type ScreeningThresholds,
} from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import type { EngineQuery, PartitionInfo } from '../index/candidate-index.js';
import { IndexService, type Scope } from '../index/index.service.js';
import type { ScreeningLogEntry } from '../screening-logs/screening-log.js';
import { ScreeningLogWriter } from '../screening-logs/screening-logs.writer.js';
import { isHit, toBulkMatch, toScreenResult, type Thresholds } from './screening.results.js';

const ENTITY_TYPES: Readonly<Record<string, EntityType>> = {
  individual: 'individual',
  person: 'individual',
  organization: 'organization',
  company: 'organization',
  vessel: 'vessel',
  aircraft: 'aircraft',
};

function thresholdsOf(config: ScreeningThresholds | undefined): Thresholds {
  const highScore = config?.HIGH_SCORE ?? DEFAULT_CONFIG.highScore;
  const mediumScore = config?.MEDIUM_SCORE ?? DEFAULT_CONFIG.mediumScore;
  if (!(highScore >= 0 && highScore <= 1 && mediumScore >= 0 && mediumScore <= 1 && highScore > mediumScore)) {
    throw new DomainError('VALIDATION_FAILED', 'The thresholds are invalid.', [
      { pointer: '/thresholds', detail: 'HIGH_SCORE and MEDIUM_SCORE must be between 0 and 1, HIGH_SCORE greater than MEDIUM_SCORE' },
    ]);
  }
  return { highScore, mediumScore };
}

function listVersions(scope: Scope): ListVersionRef[] {
  return scope.versions.map((v) => ({ source: v.source, feed: v.feed, versionId: v.versionId, sha256: v.sha256, fetchedAt: v.fetchedAt, entityCount: v.entityCount }));
}

/** Names a bulk request screens before handing their logs to Postgres and screening the next ones. */
const BULK_SLICE = 200;

type Outcome = { results: ScreenResult[]; match: boolean; status: ScreenResult['status']; topScore: number };

function outcome(results: ScreenResult[]): Outcome {
  const top = results[0];
  const status = top?.status ?? 'clear';
  return { results, match: status !== 'clear', status, topScore: top?.score ?? 0 };
}

/**
 * Screens names (and emails) against exactly the partitions of the caller's feeds,
 * applies the caller's thresholds, and logs every screened name before answering.
 */
@Injectable()
export class ScreeningService {
  constructor(
    private readonly index: IndexService,
    private readonly logs: ScreeningLogWriter,
  ) {}

  async screen(request: ParsedScreenRequest): Promise<ScreenResponse> {
    const scope = this.index.scopeFor(request.feeds);
    const thresholds = thresholdsOf(request.thresholds);
    const entity = request.entity;
    const query: EngineQuery = {
      ...(entity.name ? { name: entity.name } : {}),
      ...(entity.email ? { email: entity.email } : {}),
      ...(entity.dateOfBirth ? { dob: entity.dateOfBirth } : {}),
      ...(entity.nationality ? { country: entity.nationality } : {}),
      ...(entity.entityType ? { entityType: ENTITY_TYPES[entity.entityType]! } : {}),
    };
    const partitions = new Map(scope.versions.map((v) => [v.source, v]));
    const matches = await this.index.screen(query, scope, request.limit);
    // The text is written for what an analyst reads: the top result and every hit. The weaker
    // clear candidates keep their structured explanation (tokens, qualifiers), which says the same.
    const result = outcome(matches.map((m, k) => toScreenResult(m, thresholds, partitions, k === 0 || isHit(m, thresholds))));
    const screenedAt = new Date();
    const screeningId = request.screeningId ?? randomUUID();
    await this.logs.record([this.logEntry(screeningId, 'single', request, entity.name ?? null, entity.email ?? null, result, scope, screenedAt)]);
    return {
      screeningId,
      searchedName: entity.name ?? null,
      searchedEmail: entity.email ?? null,
      match: result.match,
      blocked: result.status === 'blocked',
      status: result.status,
      topScore: result.topScore,
      label: matchLabel(result.topScore),
      results: result.results,
      listVersions: listVersions(scope),
      algorithm: DEFAULT_ALGORITHM,
      thresholds,
      screenedAt: screenedAt.toISOString(),
    };
  }

  async bulkScreen(request: ParsedBulkScreenRequest): Promise<BulkScreenResponse> {
    const scope = this.index.scopeFor(request.feeds);
    const thresholds = thresholdsOf(request.thresholds);
    const partitions = new Map<string, PartitionInfo>(scope.versions.map((v) => [v.source, v]));
    const screenedAt = new Date();
    const items: BulkItem[] = [];
    const writes: Array<Promise<void>> = [];
    // Slice by slice, so Postgres writes one slice's logs while the next is screened; the answer
    // still waits for every write.
    for (let start = 0; start < request.names.length; start += BULK_SLICE) {
      const names = request.names.slice(start, start + BULK_SLICE);
      const perName = await this.index.screenMany(
        names.map((name) => ({ name })),
        scope,
        request.limit,
      );
      const entries: ScreeningLogEntry[] = [];
      names.forEach((name, i) => {
        // Only the top result and the hits are answered (the rest of the candidates are clear and
        // not returned). Bulk results carry no explanation: the only text kept is the top hit's, as
        // its alert's or review's reason, so a name whose top result is clear needs none.
        const needed = perName[i]!.filter((m, k) => k === 0 || isHit(m, thresholds));
        const result = outcome(needed.map((m, k) => toScreenResult(m, thresholds, partitions, k === 0 && isHit(m, thresholds))));
        const screeningId = request.screeningIds?.[start + i] ?? randomUUID();
        entries.push(this.logEntry(screeningId, 'bulk', request, name, null, result, scope, screenedAt));
        items.push({
          screeningId,
          searchedName: name,
          match: result.match,
          blocked: result.status === 'blocked',
          status: result.status,
          topScore: result.topScore,
          label: matchLabel(result.topScore),
          // Triage needs the hits, not every weak candidate: only review and blocked results.
          results: result.results.filter((r) => r.status !== 'clear').map(toBulkMatch),
        });
      });
      const written = this.logs.record(entries);
      // Settled here so a failed write is not an unhandled rejection while later slices are screened.
      written.catch(() => undefined);
      writes.push(written);
      // A turn of the event loop: the write goes out now (not after the last slice), and single
      // screens waiting behind this request are answered between slices.
      if (start + BULK_SLICE < request.names.length) await new Promise((r) => setImmediate(r));
    }
    await Promise.all(writes);
    return {
      results: items,
      summary: { total: items.length, matches: items.filter((i) => i.match).length, blocked: items.filter((i) => i.blocked).length },
      listVersions: listVersions(scope),
      algorithm: DEFAULT_ALGORITHM,
      thresholds,
      screenedAt: screenedAt.toISOString(),
    };
  }

  private logEntry(
    id: string,
    kind: ScreeningLogEntry['kind'],
    request: ParsedScreenRequest | ParsedBulkScreenRequest,
    searchedName: string | null,
    searchedEmail: string | null,
    result: Outcome,
    scope: Scope,
    createdAt: Date,
  ): ScreeningLogEntry {
    const top = result.results[0];
    return {
      id,
      kind,
      clientId: request.clientId,
      tier: request.tier,
      requestId: currentRequestId() ?? null,
      searchedName,
      searchedEmail,
      matchFound: result.match,
      status: result.status,
      score: result.topScore,
      confidence: matchLabel(result.topScore),
      topEntityId: top?.id ?? null,
      matchedEntityName: top?.name ?? null,
      sourceList: top?.sourceDataset ?? null,
      matchReason: top && result.match ? top.explanation.text : null,
      feeds: [...request.feeds],
      listVersions: scope.versions.map((v) => ({ source: v.source, versionId: v.versionId })),
      createdAt,
    };
  }
}
