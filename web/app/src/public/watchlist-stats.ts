import type { Feed, PublicListInfo } from '@vigil/proto';

export type FeedStats = { entityCount: number; lastUpdated: string | null; sources: number };

/** Sums the live sources of each feed: one watchlist card may be fed by several official lists. */
export function statsByFeed(lists: readonly PublicListInfo[]): Map<Feed, FeedStats> {
  const stats = new Map<Feed, FeedStats>();
  for (const list of lists) {
    const current = stats.get(list.feed) ?? { entityCount: 0, lastUpdated: null, sources: 0 };
    const newer =
      list.lastUpdated !== null && (current.lastUpdated === null || list.lastUpdated > current.lastUpdated)
        ? list.lastUpdated
        : current.lastUpdated;
    stats.set(list.feed, { entityCount: current.entityCount + list.entityCount, lastUpdated: newer, sources: current.sources + 1 });
  }
  return stats;
}
