import { csvCell, type EntityDetails, type ListInfo } from '@vigil/proto';
import type { SourceState } from '../sources/sources.repository.js';
import type { StoredEntity } from './catalog.repository.js';

export function toEntityDetails(s: StoredEntity): EntityDetails {
  const e = s.entity;
  const names = e.names.map((n) => ({ full: n.full, strength: n.strength, ...(n.kind ? { kind: n.kind } : {}), ...(n.script ? { script: n.script } : {}) }));
  return {
    id: `${s.source}:${s.sourceId}`,
    source: s.source,
    sourceId: s.sourceId,
    sourceDataset: s.dataset,
    sourceName: s.sourceName,
    feed: s.feed,
    entityType: e.type,
    name: e.names[0]?.full ?? '',
    names,
    aliases: names.slice(1),
    datesOfBirth: e.birthDates,
    placesOfBirth: e.birthPlaces,
    nationalities: e.nationalities,
    citizenships: e.citizenships,
    addresses: e.addresses,
    identifiers: e.identifiers,
    programs: e.programs,
    listingDate: e.listedOn ?? null,
    remarks: e.remarks ?? null,
    sourceUrl: e.sourceUrl ?? null,
    upstreamDatasets: e.datasets ?? [],
    positions: e.positions ?? [],
    gender: e.gender ?? null,
    flag: e.flag ?? null,
    linkedTo: e.linkedTo ?? [],
    addedInVersion: s.addedVersionId,
    changedInVersion: s.changedVersionId,
    listVersion: s.listVersionId,
  };
}

export function toListInfo(s: SourceState): ListInfo {
  return {
    source: s.source,
    name: s.name,
    publisher: s.publisher,
    location: s.location,
    feed: s.feed,
    sourceDataset: s.dataset,
    status: s.updating ? 'updating' : s.enabled && s.version ? 'active' : 'inactive',
    description: s.description,
    entityCount: s.version?.entityCount ?? 0,
    version: s.version?.id ?? null,
    fileSize: s.version?.fileSize ?? null,
    lastUpdated: s.version?.fetchedAt.toISOString() ?? null,
    checksum: s.version?.sha256 ?? null,
    lastCheckedAt: s.lastCheckedAt?.toISOString() ?? null,
    lastError: s.lastError && s.lastErrorAt && (!s.version || s.lastErrorAt >= s.version.fetchedAt) ? s.lastError : null,
    refreshIntervalMinutes: s.refreshMinutes,
  };
}

export const CSV_COLUMNS = [
  'id',
  'source',
  'source_id',
  'entity_type',
  'name',
  'aliases',
  'dates_of_birth',
  'places_of_birth',
  'nationalities',
  'addresses',
  'identifiers',
  'programs',
  'listing_date',
  'remarks',
  'source_url',
] as const;

// Formula-looking cells are defused so a spreadsheet does not execute them (CSV injection):
// the code base's one escaper, proto's csvCell.
const cell = (value: string): string => csvCell(value);

export function toCsvRow(d: EntityDetails): string {
  const values = [
    d.id,
    d.source,
    d.sourceId,
    d.entityType,
    d.name,
    d.aliases.map((a) => a.full).join('; '),
    d.datesOfBirth.join('; '),
    d.placesOfBirth.join('; '),
    d.nationalities.join('; '),
    d.addresses.map((a) => a.full ?? [a.street, a.city, a.region, a.postalCode, a.country].filter(Boolean).join(', ')).join('; '),
    d.identifiers.map((i) => `${i.type}: ${i.value}${i.country ? ` (${i.country})` : ''}`).join('; '),
    d.programs.join('; '),
    d.listingDate ?? '',
    d.remarks ?? '',
    d.sourceUrl ?? '',
  ];
  return values.map(cell).join(',') + '\r\n';
}
