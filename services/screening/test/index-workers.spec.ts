import { jest } from '@jest/globals';
import {
  contracts,
  type ScreeningCaller,
  type BulkScreenResponse,
  type ListsResponse,
  type ScreenResponse,
} from '@vigil/proto';
import { writeV1 } from './fixture-lists.js';
import { Harness, eventually } from './harness.js';

jest.setTimeout(60_000);

const starter: ScreeningCaller = { clientId: 'client-starter', tier: 'starter', feeds: ['ofac', 'peps'] };
const large: ScreeningCaller = {
  clientId: 'client-large',
  tier: 'large',
  feeds: ['ofac', 'peps', 'regulatory', 'sanctions', 'wanted', 'crime', 'us_sanctions', 'eu_sanctions'],
};
const listed = [
  'Viktor Bout',
  'Aerocaribbean Airlines',
  'Eric Badege',
  'Al Rashid Trust',
  'Hani al-Sibai',
  'Ramzan Kadyrov',
];
const variants = [
  'Victor Butt',
  'BOUT Viktor',
  'Badege Eric',
  'al Rasheed Trust',
  'Kadyrov, Ramzan A.',
  'Someone Unlisted',
];
// Enough names that the engine hands them to the workers (it keeps small batches on its own thread).
const names = Array.from({ length: 96 }, (_, i) => [...listed, ...variants][i % 12]! + (i < 12 ? '' : ` ${i}`));

describe('bulk screening on index workers (INDEX_WORKERS=2)', () => {
  const h = new Harness();

  beforeAll(async () => {
    await h.start();
    const dir = await h.tempDir();
    await writeV1(dir);
    h.startService({ LISTS_DIR: dir, INDEX_WORKERS: '2' });
    await h.waitForResponders();
    await eventually(
      () => h.value<ListsResponse>('screening.v1.lists', {}),
      (r) => r.lists.length === 3 && r.lists.every((l) => l.status === 'active'),
    );
    await eventually(
      () => h.request(contracts.screening.screen, { ...large, entity: { name: 'Eric Badege' } }),
      (r) => r.ok,
    );
  });
  afterAll(() => h.stop());

  it.each([
    ['large', large],
    ['starter', starter],
  ])('answers each name as a single screen would, within the %s feeds', async (_, caller) => {
    const bulk = await h.value<BulkScreenResponse>('screening.v1.bulk-screen', { ...caller, names, limit: 5 }, 60_000);
    expect(bulk.results).toHaveLength(names.length);
    for (const [i, name] of names.entries()) {
      const single = await h.value<ScreenResponse>('screening.v1.screen', { ...caller, entity: { name }, limit: 5 });
      const item = bulk.results[i]!;
      expect({ name: item.searchedName, status: item.status, topScore: item.topScore }).toEqual({
        name,
        status: single.status,
        topScore: single.topScore,
      });
      expect(item.results.map((r) => [r.id, r.score, r.matchedName])).toEqual(
        single.results.filter((r) => r.status !== 'clear').map((r) => [r.id, r.score, r.matchedName]),
      );
      for (const r of item.results) expect(caller.feeds).toContain(r.feed);
    }
    expect(bulk.results[0]!.results[0]).toMatchObject({ id: 'ofac-sdn:101' });
  });
});
