import type { Entity } from '@vigil/lists';
import type { PartyEntry, ReviewParty, ScreenResult } from '@vigil/proto';
import { listEntryOf, normaliseName } from './review-memory.key.js';

// One real-world party, one place in the case: the same company or person published on several
// lists comes back from the engine as one candidate per list entry. Pure.

export type FlaggedCandidate = {
  entity: Entity;
  result: ScreenResult;
  listVersion: { source: string; versionId: number } | null;
};

const RANK = { blocked: 2, review: 1, clear: 0 } as const;

const identifierKeys = (entity: Entity) =>
  entity.identifiers.map((i) => `${i.type.trim().toLowerCase()}|${i.value.replace(/[\s.-]+/g, '').toLowerCase()}`);
const nameKeys = (entity: Entity) => new Set(entity.names.map((n) => normaliseName(n.full)).filter(Boolean));
const intersects = <T>(a: Iterable<T>, b: ReadonlySet<T>) => [...a].some((x) => b.has(x));

/**
 * Whether two list entries describe the same party: a shared identifier (registration number,
 * passport, IMO…); or a shared name with a shared date of birth; or, for parties that have no
 * date of birth (organisations, vessels), a shared name and the same entity type.
 */
export function sameParty(a: Entity, b: Entity): boolean {
  if (intersects(identifierKeys(a), new Set(identifierKeys(b)))) return true;
  if (!intersects(nameKeys(a), nameKeys(b))) return false;
  if (a.birthDates.length > 0 && b.birthDates.length > 0) return intersects(a.birthDates, new Set(b.birthDates));
  return a.type !== 'individual' && a.type === b.type && a.birthDates.length === 0 && b.birthDates.length === 0;
}

/** Groups flagged candidates into parties (union of `sameParty`), strongest party and entry first. */
export function groupParties(candidates: readonly FlaggedCandidate[]): ReviewParty[] {
  const parent = candidates.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  for (let i = 0; i < candidates.length; i++) {
    for (let j = i + 1; j < candidates.length; j++) {
      if (root(i) !== root(j) && sameParty(candidates[i]!.entity, candidates[j]!.entity)) parent[root(j)] = root(i);
    }
  }
  const groups = new Map<number, PartyEntry[]>();
  candidates.forEach((c, i) => {
    const entry: PartyEntry = {
      ...listEntryOf(c.entity, c.result, c.listVersion),
      status: c.result.status,
      score: c.result.score,
      suppressedBy: c.result.suppressedBy ?? null,
    };
    groups.set(root(i), [...(groups.get(root(i)) ?? []), entry]);
  });
  const byStrength = (x: { status: PartyEntry['status']; score: number }, y: typeof x) =>
    RANK[y.status] - RANK[x.status] || y.score - x.score;
  return [...groups.values()]
    .map((entries) => {
      const sorted = [...entries].sort(byStrength);
      const top = sorted[0]!;
      return { name: top.name, entityType: top.entityType, status: top.status, score: top.score, entries: sorted };
    })
    .sort(byStrength);
}
