import type { ListInfo } from '@vigil/proto';
import { statsByFeed } from './watchlist-stats.js';

const list = (feed: ListInfo['feed'], entityCount: number, lastUpdated: string | null): ListInfo => ({
  source: `${feed}-${entityCount}`,
  name: feed,
  publisher: 'p',
  location: 'l',
  feed,
  sourceDataset: 'd',
  status: 'active',
  description: '',
  entityCount,
  version: 1,
  fileSize: null,
  lastUpdated,
  checksum: null,
  lastCheckedAt: null,
  lastError: null,
  refreshIntervalMinutes: 60,
});

describe('statsByFeed', () => {
  it('adds up the sources of a feed and keeps the newest update', () => {
    const stats = statsByFeed([
      list('ofac', 100, '2026-11-20T10:00:00Z'),
      list('ofac', 20, '2026-11-21T08:00:00Z'),
      list('peps', 5, null),
    ]);
    expect(stats.get('ofac')).toEqual({ entityCount: 120, lastUpdated: '2026-11-21T08:00:00Z', sources: 2 });
    expect(stats.get('peps')).toEqual({ entityCount: 5, lastUpdated: null, sources: 1 });
    expect(stats.has('crime')).toBe(false);
  });
});
