import type { Entity, EntityName, ListId } from '@vigil/lists';

/** A list entity with only what a test cares about. */
export function entity(listId: ListId, sourceId: string, type: Entity['type'], names: string[], extra: Partial<Entity> = {}): Entity {
  const entityNames: EntityName[] = names.map((full, i) => ({ full, strength: i === 0 ? 'primary' : 'strong', ...(i > 0 ? { kind: 'aka' } : {}) }));
  return {
    listId,
    sourceId,
    type,
    names: entityNames,
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

/** Two small sources in different feeds: the contract suite and unit tests screen against them. */
export const OFAC_ENTITIES: Entity[] = [
  entity('ofac-sdn', '100', 'individual', ['Viktor Anatolyevich BOUT', 'Victor BOUT', 'Viktor BUT'], {
    birthDates: ['1967-01-13'],
    nationalities: ['RU'],
    programs: ['SDGT'],
  }),
  entity('ofac-sdn', '101', 'organization', ['AEROCARIBBEAN AIRLINES', 'AERO-CARIBBEAN'], { programs: ['CUBA'] }),
  entity('ofac-sdn', '102', 'vessel', ['IRAN HORMUZ 12'], { programs: ['IRAN'] }),
  entity('ofac-sdn', '103', 'individual', ['Ramzan Akhmadovich KADYROV'], {
    birthDates: ['1976-10-05'],
    programs: ['RUSSIA-EO14024'],
    identifiers: [{ type: 'email', value: 'Press@Chechnya.example' }],
  }),
  entity('ofac-sdn', '104', 'organization', ['BANCO NACIONAL DE CUBA', 'NATIONAL BANK OF CUBA'], { programs: ['CUBA'] }),
  entity('ofac-sdn', '105', 'individual', ['Kim JONG UN'], { birthDates: ['1984-01-08'], programs: ['DPRK3'] }),
];

export const UN_ENTITIES: Entity[] = [
  entity('un-sc', 'QDi.001', 'individual', ['Hani Muhammad Yusuf AL-SIBAI'], { birthDates: ['1963'], programs: ['Al-Qaida'] }),
  entity('un-sc', 'QDe.002', 'organization', ['AL RASHID TRUST'], { programs: ['Al-Qaida'] }),
  entity('un-sc', 'CDi.003', 'individual', ['Eric BADEGE'], { birthDates: ['1971'], programs: ['DRC'] }),
];
