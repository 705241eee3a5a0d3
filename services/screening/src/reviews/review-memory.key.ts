import type { Entity } from '@vigil/lists';
import type {
  MatchExplanation,
  ReviewListEntry,
  ReviewParty,
  ScreenEntity,
  ScreenResult,
  SearchedInput,
} from '@vigil/proto';
import { createHash } from 'node:crypto';

// What a remembered false positive is keyed on, and what a review keeps of its screening. Pure.

/** The query side of a memory's key: the searched name normalised, the qualifiers as sent. */
export type MemoryQueryKey = {
  nameKey: string;
  dateOfBirth: string;
  country: string;
  entityType: string;
  customerReference: string;
};

/** What a review keeps of the screening that raised it: the case pane, and a memory's key. */
export type ReviewCaseFile = {
  searched: SearchedInput;
  entry: ReviewListEntry;
  explanation: MatchExplanation;
  memory: MemoryQueryKey & { fingerprint: string };
  /** Why a remembered decision on this entity no longer applies, if one lapsed. */
  memoryNote: string | null;
  /** Every flagged candidate of the screen, grouped by party (absent on cases raised before parties were kept). */
  parties?: ReviewParty[];
};

/** Case, accents, apostrophes and punctuation do not make a different name; order and spelling do. */
export function normaliseName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/['`\u02BB\u02BC\u2018\u2019]/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const asSent = (value: string | undefined) => (value ?? '').trim().toLowerCase();

export function memoryQueryKey(entity: ScreenEntity): MemoryQueryKey {
  return {
    nameKey: normaliseName(entity.name ?? entity.email ?? ''),
    dateOfBirth: asSent(entity.dateOfBirth),
    country: asSent(entity.nationality),
    entityType: asSent(entity.entityType),
    // The client's own identifier: compared exactly.
    customerReference: (entity.customerReference ?? '').trim(),
  };
}

/** One string per (query, list entity): the cache's lookup key within a client. */
export function memoryLookup(key: MemoryQueryKey, entityId: string): string {
  return JSON.stringify([key.nameKey, key.dateOfBirth, key.country, key.entityType, key.customerReference, entityId]);
}

const sortedUnique = (values: Iterable<string>) => [...new Set(values)].sort();

/**
 * What the analyst judged the list entry by: its names, birth dates and identifiers. A new list
 * version that changes any of them changes the fingerprint, and the remembered decision lapses.
 */
export function entityFingerprint(entity: Entity): string {
  const canonical = JSON.stringify([
    sortedUnique(entity.names.map((n) => n.full.trim())),
    sortedUnique(entity.birthDates.map((d) => d.trim())),
    sortedUnique(entity.identifiers.map((i) => `${i.type.trim()}|${i.value.trim()}`)),
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

export function caseFileOf(
  query: ScreenEntity,
  entity: Entity,
  result: ScreenResult,
  listVersion: { source: string; versionId: number } | null,
  parties: ReviewParty[],
): ReviewCaseFile {
  return {
    searched: {
      name: query.name ?? null,
      email: query.email ?? null,
      dateOfBirth: query.dateOfBirth ?? null,
      country: query.nationality ?? null,
      entityType: query.entityType ?? null,
      customerReference: query.customerReference ?? null,
    },
    entry: listEntryOf(entity, result, listVersion),
    explanation: result.explanation,
    memory: { ...memoryQueryKey(query), fingerprint: entityFingerprint(entity) },
    memoryNote: result.memoryNote ?? null,
    parties,
  };
}

/** The list entry as it stood when the screen hit it: what the case pane shows beside the input. */
export function listEntryOf(
  entity: Entity,
  result: ScreenResult,
  listVersion: { source: string; versionId: number } | null,
): ReviewListEntry {
  return {
    entityId: result.id,
    name: result.name,
    names: entity.names.map((n) => n.full),
    datesOfBirth: [...entity.birthDates],
    identifiers: entity.identifiers.map((i) => ({
      type: i.type,
      value: i.value,
      ...(i.country ? { country: i.country } : {}),
      ...(i.note ? { note: i.note } : {}),
    })),
    nationalities: [...new Set([...entity.nationalities, ...entity.citizenships])],
    entityType: entity.type,
    programs: [...entity.programs],
    source: result.source,
    sourceDataset: result.sourceDataset,
    listVersion,
  };
}
