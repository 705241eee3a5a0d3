import type { Entity, EntityName, EntityType, ListId } from '@vigil/lists';

/** A small in-memory list entity for tests. */
export function entity(
  sourceId: string,
  type: EntityType,
  names: Array<string | Partial<EntityName> & { full: string }>,
  extra: Partial<Entity> = {},
  listId: ListId = 'ofac-sdn',
): Entity {
  return {
    listId,
    sourceId,
    type,
    names: names.map((n, i) => (typeof n === 'string' ? { full: n, strength: i === 0 ? 'primary' : 'strong' } : { strength: i === 0 ? 'primary' : 'strong', ...n })),
    birthDates: [],
    birthPlaces: [],
    nationalities: [],
    citizenships: [],
    addresses: [],
    identifiers: [],
    programs: [],
    ...extra,
  };
}
