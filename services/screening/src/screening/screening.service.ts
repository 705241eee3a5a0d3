import { Injectable } from '@nestjs/common';
import { identifierProblem, type EntityType } from '@vigil/lists';
import { DEFAULT_ALGORITHM, tunablesFromThresholds, type QueryTunables } from '@vigil/matching';
import { currentRequestId, currentTraceparent, DomainError } from '@vigil/platform';
import {
  DEFAULT_THRESHOLDS,
  bulkRowOf,
  matchLabel,
  thresholdProblems,
  type BulkItem,
  type BulkScreenResponse,
  type ListVersionRef,
  type ParsedBulkScreenRequest,
  type ParsedRescreenRequest,
  type ParsedScreenRequest,
  type ScreeningActor,
  type ScreenEntity,
  type ScreenResponse,
  type ScreenResult,
  type ScreenSummaryResponse,
  type ScreeningThresholds,
} from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import type { EngineMatch, EngineQuery, PartitionInfo } from '../index/candidate-index.js';
import { IndexService, type Scope } from '../index/index.service.js';
import type { ScreeningLogEntry } from '../screening-logs/screening-log.js';
import { ScreeningLogWriter } from '../screening-logs/screening-logs.writer.js';
import { caseFileOf, type ReviewCaseFile } from '../reviews/review-memory.key.js';
import { groupParties } from '../reviews/parties.js';
import { ReviewMemory } from '../reviews/review-memory.js';
import { isHit, summarised, toBulkMatch, toScreenResult, type Thresholds } from './screening.results.js';
import { assertIdentifiersValid, describeIdentifiers, planIdentifiers } from './screening.identifiers.js';

const ENTITY_TYPES: Readonly<Record<string, EntityType>> = {
  individual: 'individual',
  person: 'individual',
  organization: 'organization',
  company: 'organization',
  vessel: 'vessel',
  aircraft: 'aircraft',
};

/**
 * What the engine is asked for a party: its name, email and identifiers, and the qualifiers that
 * sharpen the score. A wallet address typed as the name is screened as the address it is.
 */
function engineQuery(entity: ScreenEntity): EngineQuery {
  const plan = planIdentifiers(entity.name, entity.identifiers);
  return {
    ...(entity.name && !plan.nameIsAddress ? { name: entity.name } : {}),
    ...(entity.email ? { email: entity.email } : {}),
    ...(entity.dateOfBirth ? { dob: entity.dateOfBirth } : {}),
    ...(entity.nationality ? { country: entity.nationality } : {}),
    ...(entity.entityType ? { entityType: ENTITY_TYPES[entity.entityType]! } : {}),
    ...(plan.identifiers.length > 0 ? { identifiers: plan.identifiers } : {}),
  };
}

/**
 * What a query runs with: the status bands (answered with the result), the engine tunables and the
 * algorithm the client is pinned to (answered too, so a result names what produced it).
 */
type Resolved = { thresholds: Thresholds; tunables: QueryTunables; algorithm: string };

const DEFAULT_RESOLVED: Resolved = Object.freeze({
  thresholds: Object.freeze({ highScore: DEFAULT_THRESHOLDS.HIGH_SCORE, mediumScore: DEFAULT_THRESHOLDS.MEDIUM_SCORE }),
  tunables: Object.freeze(tunablesFromThresholds(DEFAULT_THRESHOLDS)),
  algorithm: DEFAULT_ALGORITHM,
});

/**
 * The caller's five thresholds over the global defaults (the engine's), checked by the same rules
 * the admin editor shows. Resolved once per request from what the gateway sent (its key cache
 * holds the client's configuration), so applying them costs no round trip.
 */
export function resolveThresholds(config: ScreeningThresholds | undefined): Resolved {
  if (!config) return DEFAULT_RESOLVED;
  const merged = { ...DEFAULT_THRESHOLDS, ...config };
  const problems = thresholdProblems(merged);
  if (problems.length > 0) {
    throw new DomainError(
      'VALIDATION_FAILED',
      'The thresholds are invalid.',
      problems.map((p) => ({ pointer: `/thresholds/${p.key}`, detail: p.message })),
    );
  }
  return {
    thresholds: { highScore: merged.HIGH_SCORE, mediumScore: merged.MEDIUM_SCORE },
    tunables: tunablesFromThresholds(merged),
    algorithm: config.ALGORITHM ?? DEFAULT_ALGORITHM,
  };
}

export function listVersions(scope: Scope): ListVersionRef[] {
  return scope.versions.map((v) => ({
    source: v.source,
    feed: v.feed,
    versionId: v.versionId,
    sha256: v.sha256,
    fetchedAt: v.fetchedAt,
    entityCount: v.entityCount,
  }));
}

/** Names a bulk request screens before handing their logs to Postgres and screening the next ones. */
const BULK_SLICE = 200;

/**
 * `decisive`: the result the screening's status comes from (and its alert or review is about):
 * the best result that is a hit, else the top one. It is the top one unless a remembered false
 * positive cleared the top result.
 */
type Outcome = {
  results: ScreenResult[];
  match: boolean;
  status: ScreenResult['status'];
  topScore: number;
  decisive: number;
};

function outcome(results: ScreenResult[]): Outcome {
  const hit = results.findIndex((r) => r.status !== 'clear');
  const decisive = hit === -1 ? 0 : hit;
  const status = results[decisive]?.status ?? 'clear';
  return { results, match: status !== 'clear', status, topScore: results[0]?.score ?? 0, decisive };
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
    private readonly memory: ReviewMemory,
  ) {}

  async screen(request: ParsedScreenRequest): Promise<ScreenResponse | ScreenSummaryResponse> {
    const scope = this.index.scopeFor(request.feeds);
    const { thresholds, tunables, algorithm } = resolveThresholds(request.thresholds);
    const entity = request.entity;
    const query = engineQuery(entity);
    const partitions = new Map(scope.versions.map((v) => [v.source, v]));
    const matches = await this.index.screen(query, scope, request.limit, tunables, algorithm);
    // The pointer is into the HTTP request, whose body is the party itself.
    assertIdentifiersValid(entity.identifiers, matches, '/identifiers');
    // The text is written for what an analyst reads: the top result and every hit. The weaker
    // clear candidates keep their structured explanation (tokens, qualifiers), which says the same;
    // under explain=flagged they are summarised, so no text is written for them at all.
    const flaggedOnly = request.explain === 'flagged';
    const results = matches.map((m, k) =>
      toScreenResult(m, thresholds, partitions, isHit(m, thresholds) || (!flaggedOnly && k === 0)),
    );
    const result = outcome(await this.memory.apply(request.clientId, entity, matches, results));
    const screenedAt = new Date();
    const screeningId = request.screeningId ?? randomUUID();
    await this.logs.record([
      this.logEntry(
        screeningId,
        'single',
        request,
        entity.name ?? (entity.identifiers && !entity.email ? describeIdentifiers(entity.identifiers) : null),
        entity.email ?? null,
        result,
        scope,
        screenedAt,
        caseFile(entity, matches, result, scope),
        request.actor ?? null,
      ),
    ]);
    return {
      screeningId,
      searchedName: entity.name ?? null,
      searchedEmail: entity.email ?? null,
      match: result.match,
      blocked: result.status === 'blocked',
      status: result.status,
      topScore: result.topScore,
      label: matchLabel(result.topScore),
      // Logged above from the full results; the answer may summarise the clear ones.
      results: flaggedOnly ? result.results.map(summarised) : result.results,
      listVersions: listVersions(scope),
      algorithm,
      thresholds,
      screenedAt: screenedAt.toISOString(),
    };
  }

  /**
   * `actor`: who the gateway named on a bulk-screen request, or `monitoring` for the re-screen
   * subject only monitoring may publish (the handler decides which; never the payload alone).
   */
  async bulkScreen(
    request: ParsedBulkScreenRequest | ParsedRescreenRequest,
    actor: ScreeningActor | null,
  ): Promise<BulkScreenResponse> {
    const scope = this.index.scopeFor(request.feeds);
    const { thresholds, tunables, algorithm } = resolveThresholds(request.thresholds);
    const partitions = new Map<string, PartitionInfo>(scope.versions.map((v) => [v.source, v]));
    const screenedAt = new Date();
    const items: BulkItem[] = [];
    const writes: Array<Promise<void>> = [];
    await this.assertBulkIdentifiersValid(request, scope, tunables);
    // Slice by slice, so Postgres writes one slice's logs while the next is screened; the answer
    // still waits for every write.
    for (let start = 0; start < request.names.length; start += BULK_SLICE) {
      // A bare name or a row with a single screen's fields; `reference` is the client's, only echoed.
      const rows = request.names.slice(start, start + BULK_SLICE).map(bulkRowOf);
      const entities = rows.map(({ reference: _echoed, ...entity }): ScreenEntity => entity);
      const perName = await this.index.screenMany(entities.map(engineQuery), scope, request.limit, tunables, algorithm);
      const entries: ScreeningLogEntry[] = [];
      // Only the top result and the hits are answered (the rest of the candidates are clear and
      // not returned). Bulk results carry no explanation: the only text kept is the top hit's, as
      // its alert's or review's reason, so a name whose top result is clear needs none.
      const neededPer = perName.map((matches) => matches.filter((m, k) => k === 0 || isHit(m, thresholds)));
      const resultsPer = await Promise.all(
        neededPer.map((needed, i) =>
          this.memory.apply(
            request.clientId,
            entities[i]!,
            needed,
            needed.map((m, k) => toScreenResult(m, thresholds, partitions, k === 0 && isHit(m, thresholds))),
          ),
        ),
      );
      rows.forEach(({ name, reference }, i) => {
        const needed = neededPer[i]!;
        const result = outcome(resultsPer[i]!);
        const screeningId = request.screeningIds?.[start + i] ?? randomUUID();
        entries.push(
          this.logEntry(
            screeningId,
            'bulk',
            request,
            name,
            null,
            result,
            scope,
            screenedAt,
            caseFile(entities[i]!, needed, result, scope),
            actor,
          ),
        );
        items.push({
          screeningId,
          searchedName: name,
          ...(reference !== undefined ? { reference } : {}),
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
      summary: {
        total: items.length,
        matches: items.filter((i) => i.match).length,
        blocked: items.filter((i) => i.blocked).length,
      },
      listVersions: listVersions(scope),
      algorithm,
      thresholds,
      screenedAt: screenedAt.toISOString(),
    };
  }

  /**
   * Before anything is screened or logged: a row's identifier failing its scheme's checks refuses
   * the batch unless a list gives it exactly so (looked up for those rows only; they are rare).
   */
  private async assertBulkIdentifiersValid(
    request: ParsedBulkScreenRequest | ParsedRescreenRequest,
    scope: Scope,
    tunables: QueryTunables,
  ): Promise<void> {
    const rows = request.names.flatMap((name, row) => {
      const given = bulkRowOf(name).identifiers ?? [];
      return given.some((i) => identifierProblem(i.type, i.value) !== undefined) ? [{ row, given }] : [];
    });
    if (rows.length === 0) return;
    const found = await this.index.screenMany(
      rows.map(({ given }) => ({ identifiers: planIdentifiers(undefined, given).identifiers })),
      scope,
      BULK_SLICE,
      tunables,
    );
    // The pointer is into the HTTP request, where identifiers come in `entities` rows.
    rows.forEach(({ row, given }, k) => assertIdentifiersValid(given, found[k]!, `/entities/${row}/identifiers`));
  }

  private logEntry(
    id: string,
    kind: ScreeningLogEntry['kind'],
    request: ParsedScreenRequest | ParsedBulkScreenRequest | ParsedRescreenRequest,
    searchedName: string | null,
    searchedEmail: string | null,
    result: Outcome,
    scope: Scope,
    createdAt: Date,
    review: ReviewCaseFile | null,
    actor: ScreeningActor | null,
  ): ScreeningLogEntry {
    const top = result.results[result.decisive];
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
      traceparent: currentTraceparent(),
      review,
      quotaLease: request.quotaLease ?? null,
      actor,
    };
  }
}

/** What a review keeps of its screening; only a screening that raises one (a review or a block) needs it. */
function caseFile(
  query: ScreenEntity,
  matches: readonly EngineMatch[],
  result: Outcome,
  scope: Scope,
): ReviewCaseFile | null {
  const decisive = result.results[result.decisive];
  const match = matches[result.decisive];
  if (result.status === 'clear' || !decisive || !match) return null;
  const versionOf = (source: string) => {
    const version = scope.versions.find((v) => v.source === source);
    return version ? { source: version.source, versionId: version.versionId } : null;
  };
  // Every hit of the screen, not only the decisive one, and the ones a remembered decision cleared.
  const flagged = result.results.flatMap((r, i) =>
    r.status !== 'clear' || r.suppressedBy
      ? [{ entity: matches[i]!.entity, result: r, listVersion: versionOf(r.source) }]
      : [],
  );
  return caseFileOf(query, match.entity, decisive, versionOf(decisive.source), groupParties(flagged));
}
