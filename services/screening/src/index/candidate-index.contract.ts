import type { Entity } from '@vigil/lists';
import { validUnlistedAddresses } from '@vigil/lists/testing';
import { CRYPTO_FIXTURE, OFAC_ENTITIES, UN_ENTITIES, entity } from '../testing/entities.js';
import type { CandidateIndex, EngineMatch, EngineScope, PartitionInfo } from './candidate-index.js';

// One behaviour, every engine: the same queries must give the same top results whichever
// engine retrieved the candidates. Each engine's spec file runs this suite.

export const partition = (
  source: string,
  feed: PartitionInfo['feed'],
  versionId: number,
  entities: readonly Entity[],
): PartitionInfo => ({
  source,
  feed,
  dataset: source.replace(/-/g, '_'),
  versionId,
  sha256: String(versionId).padStart(64, '0'),
  fetchedAt: '2026-01-01T00:00:00.000Z',
  entityCount: entities.length,
});

const ids = (matches: EngineMatch[]) => matches.map((m) => `${m.source}:${m.entity.sourceId}`);

export function candidateIndexContract(engineName: string, makeEngine: () => Promise<CandidateIndex>) {
  describe(`CandidateIndex contract: ${engineName}`, () => {
    let engine: CandidateIndex;
    const both = { sources: ['ofac-sdn', 'un-sc'], limit: 5 };

    beforeAll(async () => {
      engine = await makeEngine();
      await engine.load([
        { info: partition('ofac-sdn', 'ofac', 1, OFAC_ENTITIES), entities: OFAC_ENTITIES },
        { info: partition('un-sc', 'sanctions', 1, UN_ENTITIES), entities: UN_ENTITIES },
      ]);
    });
    afterAll(() => engine?.close());

    it('reports the partitions it answers from', () => {
      expect(
        engine
          .partitions()
          .map((p) => `${p.source}@${p.versionId}`)
          .sort(),
      ).toEqual(['ofac-sdn@1', 'un-sc@1']);
    });

    it.each([
      ['Viktor Bout', 'ofac-sdn:100'],
      ['BOUT, Viktor Anatolyevich', 'ofac-sdn:100'],
      ['Victor But', 'ofac-sdn:100'],
      ['Aerocaribbean Airlines', 'ofac-sdn:101'],
      ['IRANHORMUZ 12', 'ofac-sdn:102'],
      ['Ramzan Kadyrov', 'ofac-sdn:103'],
      ['National Bank of Cuba', 'ofac-sdn:104'],
      ["Hani Muhammad Yusuf al-Siba'i", 'un-sc:QDi.001'],
      ['Al-Rashid Trust', 'un-sc:QDe.002'],
      ['Erik Badege', 'un-sc:CDi.003'],
    ])('puts the listed party first for "%s"', async (name, expected) => {
      const matches = await engine.screen({ name }, both);
      expect(ids(matches)[0]).toBe(expected);
      expect(matches[0]!.score).toBeGreaterThanOrEqual(0.6);
      expect(matches[0]!.matchedOn).toBe('name');
      expect(matches[0]!.tokens.length).toBeGreaterThan(0);
    });

    it('scores an exact primary name as an exact match', async () => {
      const [top] = await engine.screen({ name: 'Viktor Anatolyevich BOUT' }, both);
      expect(top!.score).toBeGreaterThanOrEqual(0.95);
      expect(top!.matchedName).toBe('Viktor Anatolyevich BOUT');
      expect(top!.matchedStrength).toBe('primary');
    });

    it('lets a contradicting date of birth lower the score', async () => {
      const [plain] = await engine.screen({ name: 'Viktor Bout' }, both);
      const [contradicted] = await engine.screen({ name: 'Viktor Bout', dob: '1990-05-05' }, both);
      expect(contradicted!.score).toBeLessThan(plain!.score);
      expect(contradicted!.qualifiers.map((q) => q.qualifier)).toContain('dob');
    });

    it('never returns anything from a partition outside the scope', async () => {
      const matches = await engine.screen({ name: 'Eric Badege' }, { sources: ['ofac-sdn'], limit: 10 });
      expect(ids(matches).filter((id) => id.startsWith('un-sc:'))).toEqual([]);
      const inScope = await engine.screen({ name: 'Eric Badege' }, { sources: ['un-sc'], limit: 10 });
      expect(ids(inScope)[0]).toBe('un-sc:CDi.003');
      expect(await engine.screen({ name: 'Eric Badege' }, { sources: [], limit: 10 })).toEqual([]);
    });

    it('finds an in-scope party even when many out-of-scope entities match better', async () => {
      const crowd = Array.from({ length: 120 }, (_, i) =>
        entity('us-csl', `c${i}`, 'individual', [`Viktor Anatolyevich BOUT ${i % 3 === 0 ? '' : 'JR'}`.trim()]),
      );
      await engine.load([{ info: partition('us-csl', 'us_sanctions', 1, crowd), entities: crowd }]);
      try {
        const scoped = await engine.screen({ name: 'Viktor Anatolyevich Bout' }, { sources: ['ofac-sdn'], limit: 5 });
        expect(ids(scoped)[0]).toBe('ofac-sdn:100');
        expect(ids(scoped).filter((id) => !id.startsWith('ofac-sdn:'))).toEqual([]);
        const everything = await engine.screen(
          { name: 'Viktor Anatolyevich Bout' },
          { sources: ['ofac-sdn', 'us-csl'], limit: 50 },
        );
        expect(ids(everything)).toContain('ofac-sdn:100');
        expect(ids(everything).some((id) => id.startsWith('us-csl:'))).toBe(true);
      } finally {
        await engine.remove('us-csl');
      }
    });

    it('finds an entity by a listed email address, whatever its case', async () => {
      const [top] = await engine.screen({ email: 'press@chechnya.EXAMPLE' }, both);
      expect(top).toMatchObject({ source: 'ofac-sdn', matchedOn: 'email', score: 1 });
      expect(top!.entity.sourceId).toBe('103');
      expect(await engine.screen({ email: 'nobody@nowhere.example' }, both)).toEqual([]);
    });

    it.each(CRYPTO_FIXTURE.map(([chain, value]) => [chain, value]))(
      'finds the SDN-listed %s address %s alone, blocked-strength and explained',
      async (chain, value) => {
        const [top, ...rest] = await engine.screen({ identifiers: [{ scheme: 'crypto-address', value }] }, both);
        expect(top).toMatchObject({ source: 'ofac-sdn', matchedOn: 'identifier', score: 1 });
        expect(top!.entity.sourceId).toBe('105');
        expect(top!.qualifiers[0]!.detail).toBe(`SDN-listed ${chain} address ${value}`);
        expect(rest).toEqual([]);
      },
    );

    it('finds an EVM address whatever its case, and no valid but unlisted address', async () => {
      const lower = '0x098b716b8aaf21512996dc57eb0615e2383e2f96';
      expect(ids(await engine.screen({ identifiers: [{ scheme: 'crypto-address', value: lower }] }, both))).toEqual([
        'ofac-sdn:105',
      ]);
      const unlisted = validUnlistedAddresses(3).map((value) => ({
        identifiers: [{ scheme: 'crypto-address' as const, value }],
      }));
      expect((await engine.screenMany(unlisted, both)).flat()).toEqual([]);
    });

    it('finds a vessel by its IMO number and a person by passport, the country agreeing', async () => {
      expect(ids(await engine.screen({ identifiers: [{ scheme: 'imo', value: 'IMO 7632826' }] }, both))).toEqual([
        'ofac-sdn:102',
      ]);
      const passport = (country: string) =>
        engine.screen({ identifiers: [{ scheme: 'passport', value: '214370122', country }] }, both);
      expect(ids(await passport('RU'))).toEqual(['ofac-sdn:100']);
      expect(await passport('UA')).toEqual([]);
    });

    it('explains a conflicting identifier as evidence against a name match, and leaves name-only answers alone', async () => {
      const [alone] = await engine.screen({ name: 'Iran Hormuz 12' }, both);
      const [other] = await engine.screen(
        { name: 'Iran Hormuz 12', identifiers: [{ scheme: 'imo', value: '9187629' }] },
        both,
      );
      const [same] = await engine.screen(
        { name: 'Iran Hormuz 12', identifiers: [{ scheme: 'imo', value: '7632826' }] },
        both,
      );
      expect(other!.entity.sourceId).toBe('102');
      expect(other!.score).toBeCloseTo(alone!.score - 0.2, 6);
      expect(other!.qualifiers.at(-1)).toMatchObject({ qualifier: 'identifier-conflict', effect: -0.2 });
      expect(other!.qualifiers.at(-1)!.detail).toBe('IMO number 9187629 is not the listed IMO number: 7632826');
      expect(same).toMatchObject({ matchedOn: 'identifier', score: 1 });
      // An entity listing no IMO number gives no evidence either way.
      const [bout] = await engine.screen(
        { name: 'Viktor Bout', identifiers: [{ scheme: 'imo', value: '9187629' }] },
        both,
      );
      expect(bout!.score).toBe((await engine.screen({ name: 'Viktor Bout' }, both))[0]!.score);
      // Nor does another wallet address: a party holds many, and the list names only those found.
      const wallet = { scheme: 'crypto-address' as const, value: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2' };
      const [kim] = await engine.screen({ name: 'Kim Jong Un', identifiers: [wallet] }, both);
      expect(kim!.score).toBe((await engine.screen({ name: 'Kim Jong Un' }, both))[0]!.score);
    });

    // The five thresholds apply per query (a client's or a screen's own), on every engine alike.
    // "Kadyrox" reaches KADYROV by shared trigrams alone (no exact, phonetic or skeleton key):
    // 5 of its 7 trigrams, a Dice similarity of 10/14 = 0.714.
    describe('per-query thresholds', () => {
      const found = async (name: string, tunables: EngineScope['tunables']) =>
        ids(await engine.screen({ name }, { ...both, ...(tunables ? { tunables } : {}) })).includes('ofac-sdn:103');

      it('DB_SIM_THRESHOLD: a misspelling is a fuzzy candidate up to its Dice similarity, not above', async () => {
        expect(await found('Kadyrox', undefined)).toBe(true);
        expect(await found('Kadyrox', { dbSimThreshold: 0.71 })).toBe(true);
        expect(await found('Kadyrox', { dbSimThreshold: 0.72 })).toBe(false);
        expect(await found('Ramzam Kadyrox', { dbSimThreshold: 0.75 })).toBe(false);
        // per query: the next one without it answers with the defaults again
        expect(await found('Ramzam Kadyrox', undefined)).toBe(true);
      });

      it('TRIGRAM_HITS_MIN: a misspelling is a fuzzy candidate up to the trigrams it shares, not above', async () => {
        expect(await found('Kadyrox', { trigramHitsMin: 5 })).toBe(true);
        expect(await found('Kadyrox', { trigramHitsMin: 6 })).toBe(false);
        expect(await found('Ramzam Kadyrox', { trigramHitsMin: 6 })).toBe(false);
        expect(await found('Ramzam Kadyrox', undefined)).toBe(true);
      });

      it('LEV_DISTANCE_MAX: allowing fewer edits scores a misspelling lower', async () => {
        const score = async (tunables: EngineScope['tunables']) =>
          (await engine.screen({ name: 'Aerokaribean Airlinez' }, { ...both, ...(tunables ? { tunables } : {}) }))[0]!;
        const [two, one, none] = [
          await score(undefined),
          await score({ levDistanceMax: 1 }),
          await score({ levDistanceMax: 0 }),
        ];
        expect([two.entity.sourceId, one.entity.sourceId, none.entity.sourceId]).toEqual(['101', '101', '101']);
        expect(one.score).toBeLessThan(two.score);
        expect(none.score).toBeLessThan(one.score);
      });

      it('HIGH_SCORE and MEDIUM_SCORE band a score without changing what is found or how it scores', async () => {
        const plain = await engine.screen({ name: 'Victor But' }, both);
        const banded = await engine.screen(
          { name: 'Victor But' },
          { ...both, tunables: { highScore: 0.99, mediumScore: 0.95 } },
        );
        expect(banded.map((m) => [m.entity.sourceId, m.score])).toEqual(plain.map((m) => [m.entity.sourceId, m.score]));
      });
    });

    describe('per-client algorithm', () => {
      // vigil-v3's containment scores a query holding the whole list name plus a word as that name
      // less a small penalty; vigil-v2 counts the extra word against the match, vigil-v1 less so. A
      // client pinned to an older version (ThresholdConfig.ALGORITHM) gets that version's answer
      // from every engine, single and batch.
      const scoreOf = async (name: string, sourceId: string, algorithm?: string) =>
        (await engine.screen({ name }, { ...both, ...(algorithm ? { algorithm } : {}) })).find(
          (m) => m.entity.sourceId === sourceId,
        )?.score ?? 0;

      it('answers a scope pinned to vigil-v2 as vigil-v2 does, and the default as vigil-v3', async () => {
        const v3 = await scoreOf('Ramzan Kadyrov Smith', '103');
        const v2 = await scoreOf('Ramzan Kadyrov Smith', '103', 'vigil-v2');
        expect(v3).toBeGreaterThanOrEqual(0.6);
        expect(v2).toBeLessThan(0.6);
        expect(await scoreOf('Ramzan Kadyrov Smith', '103', 'vigil-v3')).toBe(v3);
        const [batch] = await engine.screenMany([{ name: 'Ramzan Kadyrov Smith' }], { ...both, algorithm: 'vigil-v2' });
        expect(batch!.find((m) => m.entity.sourceId === '103')?.score ?? 0).toBe(v2);
      });

      it('answers a scope pinned to vigil-v1 as vigil-v1 does', async () => {
        expect(await scoreOf('Eric Badege Smith', 'CDi.003', 'vigil-v1')).toBeGreaterThanOrEqual(0.6);
        expect(await scoreOf('Eric Badege Smith', 'CDi.003', 'vigil-v2')).toBeLessThan(0.6);
      });

      it('still puts the exact name first under every selectable algorithm', async () => {
        for (const algorithm of ['vigil-v1', 'vigil-v2', 'vigil-v3'])
          expect(ids(await engine.screen({ name: 'Viktor Bout' }, { ...both, algorithm }))[0]).toBe('ofac-sdn:100');
      });
    });

    it('answers a batch exactly as it answers each query', async () => {
      const queries = [{ name: 'Viktor Bout' }, { name: 'Al Rashid Trust' }, { name: 'Completely Unlisted Person' }];
      const batch = await engine.screenMany(queries, both);
      const single = await Promise.all(queries.map((q) => engine.screen(q, both)));
      expect(batch.map(ids)).toEqual(single.map(ids));
      expect(batch.map((b) => b.map((m) => m.score))).toEqual(single.map((s) => s.map((m) => m.score)));
    });

    it('is deterministic: the same query gives the same results and order', async () => {
      const a = await engine.screen({ name: 'Kim Jong' }, both);
      const b = await engine.screen({ name: 'Kim Jong' }, both);
      expect(ids(a)).toEqual(ids(b));
      expect(ids(a)[0]).toBe('ofac-sdn:105');
    });

    it('rolls a source over to a new version without touching the others', async () => {
      const v2 = [
        ...OFAC_ENTITIES.filter((e) => e.sourceId !== '102'),
        entity('ofac-sdn', '106', 'organization', ['ZALA AERO GROUP']),
      ];
      await engine.load([{ info: partition('ofac-sdn', 'ofac', 2, v2), entities: v2 }]);
      expect(engine.partitions().find((p) => p.source === 'ofac-sdn')?.versionId).toBe(2);
      expect(ids(await engine.screen({ name: 'Zala Aero Group' }, both))[0]).toBe('ofac-sdn:106');
      expect(ids(await engine.screen({ name: 'Iran Hormuz 12' }, both))).not.toContain('ofac-sdn:102');
      expect(ids(await engine.screen({ name: 'Eric Badege' }, both))[0]).toBe('un-sc:CDi.003');
    });

    it('stops answering from a removed source', async () => {
      await engine.remove('un-sc');
      expect(engine.partitions().map((p) => p.source)).toEqual(['ofac-sdn']);
      expect(ids(await engine.screen({ name: 'Eric Badege' }, both)).filter((id) => id.startsWith('un-sc:'))).toEqual(
        [],
      );
    });

    it('says it is up', async () => {
      expect((await engine.health()).up).toBe(true);
    });
  });
}
