import type { Entity } from '@vigil/lists';
import { createHash } from 'node:crypto';

/** An entity as stored: its content hash decides whether a new version changed it. */
export type EntityRecord = {
  sourceId: string;
  entity: Entity;
  json: string;
  hash: string;
  type: Entity['type'];
  primaryName: string;
  /** Every name, lowercased, one per line: what the dashboard's text search scans. */
  searchText: string;
};

/** JSON with object keys sorted, so equal content always hashes alike. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function toRecord(entity: Entity): EntityRecord {
  const json = stableJson(entity);
  return {
    sourceId: entity.sourceId,
    entity,
    json,
    hash: createHash('sha256').update(json).digest('hex'),
    type: entity.type,
    primaryName: entity.names[0]?.full ?? '',
    searchText: [entity.sourceId, ...entity.names.map((n) => n.full)].join('\n').toLowerCase(),
  };
}

export type Delta = { added: string[]; changed: string[]; removed: string[] };

/**
 * What a new version adds, changes and removes, by source id, against the entities the
 * previous version left live (source id → content hash).
 */
export function computeDelta(previous: ReadonlyMap<string, string>, next: readonly EntityRecord[]): Delta {
  const added: string[] = [];
  const changed: string[] = [];
  const present = new Set<string>();
  for (const record of next) {
    present.add(record.sourceId);
    const before = previous.get(record.sourceId);
    if (before === undefined) added.push(record.sourceId);
    else if (before !== record.hash) changed.push(record.sourceId);
  }
  const removed = [...previous.keys()].filter((id) => !present.has(id));
  const byId = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });
  return { added: added.sort(byId), changed: changed.sort(byId), removed: removed.sort(byId) };
}
