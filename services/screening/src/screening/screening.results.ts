import { explainMatch, statusFor, type EntityMatch } from '@vigil/matching';
import { matchLabel, type BulkMatch, type MatchStatus, type ScreenResult, type ScreenResultSummary, type ScreeningEntityType } from '@vigil/proto';
import { entityId, type EngineMatch, type PartitionInfo } from '../index/candidate-index.js';

export type Thresholds = { highScore: number; mediumScore: number };

/** A review or blocked result under these thresholds: what an analyst has to look at. */
export const isHit = (m: EngineMatch, thresholds: Thresholds): boolean => statusFor(m.score, thresholds) !== 'clear';

function explanationText(m: EngineMatch, status: MatchStatus): string {
  if (m.matchedOn !== 'name') {
    // An email or identifier hit: the qualifier says what the list gives ("SDN-listed ETH address 0x…").
    return `${status.toUpperCase()} ${(m.score * 100).toFixed(1)}%  ${m.source}:${m.entity.sourceId}  ${m.entity.names[0]?.full ?? ''} (${m.entity.type})\n  ${m.qualifiers[0]?.detail ?? `${m.matchedOn} match`}`;
  }
  // The engine-neutral match carries every field explainMatch reads; only the status is this request's.
  return explainMatch({ ...m, status } as unknown as EntityMatch);
}

/**
 * One engine match as the API returns it, with this caller's thresholds applied. Bulk
 * screening skips the explanation text of results it will not return in full.
 */
export function toScreenResult(m: EngineMatch, thresholds: Thresholds, partitions: ReadonlyMap<string, PartitionInfo>, withText = true): ScreenResult {
  const status = statusFor(m.score, thresholds);
  const partition = partitions.get(m.source);
  return {
    id: entityId(m.source, m.entity.sourceId),
    name: m.entity.names[0]?.full ?? m.matchedName,
    matchedName: m.matchedName,
    matchedNameStrength: m.matchedStrength,
    matchedOn: m.matchedOn,
    score: m.score,
    status,
    label: matchLabel(m.score),
    entityType: m.entity.type as ScreeningEntityType,
    source: m.source,
    sourceId: m.entity.sourceId,
    sourceDataset: partition?.dataset ?? m.source,
    feed: partition?.feed ?? 'sanctions',
    programs: m.entity.programs,
    explanation: {
      text: withText ? explanationText(m, status) : '',
      nameScore: m.nameScore,
      queryScheme: m.queryScheme,
      listScheme: m.listScheme,
      tokens: m.tokens,
      unmatchedList: m.unmatchedList,
      qualifiers: m.qualifiers,
    },
  };
}

/**
 * Under `explain: 'flagged'`: a review or blocked result in full, a clear candidate as id, name
 * and score. A hit the client's review memory cleared stays in full: it says which review cleared it.
 */
export function summarised(r: ScreenResult): ScreenResult | ScreenResultSummary {
  return r.status === 'clear' && r.suppressedBy === undefined ? { id: r.id, name: r.name, score: r.score } : r;
}

export function toBulkMatch(r: ScreenResult): BulkMatch {
  return {
    id: r.id,
    name: r.name,
    matchedName: r.matchedName,
    score: r.score,
    status: r.status,
    label: r.label,
    source: r.source,
    sourceId: r.sourceId,
    sourceDataset: r.sourceDataset,
    feed: r.feed,
    entityType: r.entityType,
  };
}
