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

/** SDN-listed addresses, one per format: [chain as OFAC labels it, address as OFAC writes it]. */
export const CRYPTO_FIXTURE: ReadonlyArray<readonly [string, string]> = [
  ['XBT', '134r8iHv69xdT6p5qVKTsHrcUEuBVZAYak'],
  ['XBT', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
  ['ETH', '0x098B716B8Aaf21512996dC57EB0615e2383E2f96'],
  ['USDT', 'TEAqwfMhXLaomXhZ8KeMhx3njGmQEDnsUR'],
  ['LTC', 'LaizKtS5DUhPuP1nTQcc83MS7HwK6vk85z'],
  ['XMR', '49HqitRzdnhYjgTEAhgGpCfsjdTeMbUTU6cyR4JV1R7k2Eej9rGT8JpFiYDa4tZM6RZiFrHmMzgSrhHEqpDYKBe5B2ufNsL'],
  ['BCH', 'qpf2cphc5dkuclkqur7lhj2yuqq9pk3hmukle77vhq'],
  ['ZEC', 't1MMXtBrSp1XG38Lx9cePcNUCJj5vdWfUWL'],
  ['DASH', 'XnPFsRWTaSgiVauosEwQ6dEitGYXgwznz2'],
];

/** Two small sources in different feeds: the contract suite and unit tests screen against them. */
export const OFAC_ENTITIES: Entity[] = [
  entity('ofac-sdn', '100', 'individual', ['Viktor Anatolyevich BOUT', 'Victor BOUT', 'Viktor BUT'], {
    birthDates: ['1967-01-13'],
    nationalities: ['RU'],
    programs: ['SDGT'],
    identifiers: [{ type: 'passport', value: '21 4370122', country: 'RU', note: 'Passport' }],
  }),
  entity('ofac-sdn', '101', 'organization', ['AEROCARIBBEAN AIRLINES', 'AERO-CARIBBEAN'], { programs: ['CUBA'] }),
  entity('ofac-sdn', '102', 'vessel', ['IRAN HORMUZ 12'], {
    programs: ['IRAN'],
    identifiers: [{ type: 'imo', value: '7632826', note: 'Vessel Registration Identification' }],
  }),
  entity('ofac-sdn', '103', 'individual', ['Ramzan Akhmadovich KADYROV'], {
    birthDates: ['1976-10-05'],
    programs: ['RUSSIA-EO14024'],
    identifiers: [{ type: 'email', value: 'Press@Chechnya.example' }],
  }),
  entity('ofac-sdn', '104', 'organization', ['BANCO NACIONAL DE CUBA', 'NATIONAL BANK OF CUBA'], { programs: ['CUBA'] }),
  entity('ofac-sdn', '105', 'individual', ['Kim JONG UN'], {
    birthDates: ['1984-01-08'],
    programs: ['DPRK3'],
    // One address of each chain the SDN list carries, written as OFAC writes them.
    identifiers: CRYPTO_FIXTURE.map(([chain, value]) => ({ type: 'crypto-address', value, chain, note: chain })),
  }),
];

export const UN_ENTITIES: Entity[] = [
  entity('un-sc', 'QDi.001', 'individual', ['Hani Muhammad Yusuf AL-SIBAI'], { birthDates: ['1963'], programs: ['Al-Qaida'] }),
  entity('un-sc', 'QDe.002', 'organization', ['AL RASHID TRUST'], { programs: ['Al-Qaida'] }),
  entity('un-sc', 'CDi.003', 'individual', ['Eric BADEGE'], { birthDates: ['1971'], programs: ['DRC'] }),
];
