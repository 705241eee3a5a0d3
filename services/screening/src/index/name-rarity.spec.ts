import { CandidateIndex } from '@vigil/matching';
import { OFAC_ENTITIES, UN_ENTITIES } from '../testing/entities.js';
import { NameRarity } from './name-rarity.js';

describe('NameRarity', () => {
  it('agrees with the in-memory index of @vigil/matching token for token, also combined over partitions', () => {
    const entities = [...OFAC_ENTITIES, ...UN_ENTITIES];
    const index = new CandidateIndex(entities);
    const rarity = NameRarity.combine([NameRarity.fromEntities(OFAC_ENTITIES), NameRarity.fromEntities(UN_ENTITIES)]);
    for (const token of ['bout', 'viktor', 'cuba', 'bank', 'al', 'trust', 'hormuz', '12', 'unlisted']) {
      expect(rarity.rarity(token)).toBeCloseTo(index.rarity(token), 12);
    }
  });
});
