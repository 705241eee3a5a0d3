import { jest } from '@jest/globals';
import { contracts, type Contract, type ListsResponse, type ReplyOf, type RequestOf } from '@vigil/proto';
import { unXml, writePeps, writeSdn, writeUn } from './fixture-lists.js';
import { Harness, eventually } from './harness.js';

jest.setTimeout(120_000);

const FEEDS = ['ofac', 'peps', 'sanctions'] as const;
const caller = (clientId: string) => ({ clientId, tier: 'large' as const, feeds: [...FEEDS] });

describe('every flagged candidate reaches the case, grouped by party (issue #36)', () => {
  const h = new Harness();

  async function ok<C extends Contract>(contract: C, data: RequestOf<C>): Promise<ReplyOf<C>> {
    const reply = await h.request(contract, data, 30_000);
    if (!reply.ok) throw new Error(`${contract.subject}: ${reply.error.code} ${reply.error.message}`);
    return reply.value;
  }
  const caseOfScreen = async (clientId: string, name: string) => {
    const screened = await ok(contracts.screening.screen, { ...caller(clientId), entity: { name } });
    const { reviews } = await ok(contracts.screening.reviews, { clientId });
    const review = reviews.find((r) => r.searched_input === name)!;
    return { screened, review, pane: await ok(contracts.screening.reviewCase, { clientId, id: review.id }) };
  };

  beforeAll(async () => {
    await h.start();
    const dir = await h.tempDir();
    await writeSdn(dir, [
      { id: 201, name: 'HIZBALLAH', programs: 'SDGT] [FTO' },
      { id: 202, name: 'KHAN, Hizb Ullah Astam', type: 'individual', programs: 'SDGT' },
      { id: 204, name: 'HIZBALLAH, Ahmad', type: 'individual', programs: 'SDGT' },
      {
        id: 203,
        name: 'ROSNEFT OIL COMPANY',
        programs: 'RUSSIA-EO14024',
        remarks: 'Registration ID 1027700043502 (Russia).',
      },
    ]);
    await writeUn(dir, unXml([], [{ ref: 'QDe.301', name: 'ROSNEFT OIL COMPANY' }]));
    await writePeps(dir, [{ id: 'pep-1', name: 'Marisol Ventura Quiroga' }]);
    h.startService({ LISTS_DIR: dir, INDEX_RECONCILE_SECONDS: '3600' });
    await h.waitForResponders();
    await eventually(
      () => h.value<ListsResponse>('screening.v1.lists', {}),
      (r) => r.lists.length === 3 && r.lists.every((l) => l.status === 'active'),
    );
  });
  afterAll(() => h.stop());

  it('puts the organisation and the individual a name hits both in the case, not only the top one', async () => {
    const { screened, review, pane } = await caseOfScreen('c-parties-hizballah', 'Hizballah');
    const hits = screened.results.filter((r) => 'status' in r && r.status !== 'clear').map((r) => r.id);
    // The organisation and the individual of that name are both hits of the screen…
    expect(hits).toEqual(expect.arrayContaining(['ofac-sdn:201', 'ofac-sdn:204']));
    // …and both reach the case, as two parties (an organisation is never one party with a person).
    expect(review.party_count).toBe(hits.length);
    expect(
      pane.parties
        .map((p) => p.entries.map((e) => e.entityId))
        .flat()
        .sort(),
    ).toEqual([...hits].sort());
    expect(pane.parties.map((p) => p.entityType)).toEqual(expect.arrayContaining(['organization', 'individual']));
  });

  it('makes one party of the same company on two lists, with both list entries', async () => {
    const { review, pane } = await caseOfScreen('c-parties-rosneft', 'Rosneft Oil Company');
    expect(review.party_count).toBe(1);
    expect(pane.parties).toHaveLength(1);
    expect(pane.parties[0]!.entries.map((e) => e.sourceDataset).sort()).toEqual(
      expect.arrayContaining([expect.stringMatching(/ofac/), expect.stringMatching(/un/)]),
    );
    expect(pane.parties[0]!.entries).toHaveLength(2);
  });
});
