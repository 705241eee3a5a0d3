import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { memoryChangedEventSchema, streams, subjects, type ScreenEntity, type ScreenResult } from '@vigil/proto';
import { JetStreamAdapter } from '../events/jetstream.adapter.js';
import type { EngineMatch } from '../index/candidate-index.js';
import { entityFingerprint, memoryLookup, memoryQueryKey } from './review-memory.key.js';
import { ReviewsRepository, type ActiveMemory } from './reviews.repository.js';

/** A missed invalidation event (core delivery to this replica failed) is corrected within this. */
const CACHE_TTL_MS = 60_000;

type ClientMemories = { byLookup: ReadonlyMap<string, readonly ActiveMemory[]> };

/**
 * The false-positive memory on the screen path. A screen whose results hold no review-band hit
 * returns at once, without a lookup; otherwise the client's active memories come from a
 * per-client cache, loaded once and dropped when a memory of that client is created or revoked
 * (here, and on every replica by the memory-changed event), and after a minute regardless.
 */
@Injectable()
export class ReviewMemory implements OnApplicationBootstrap {
  private readonly logger = new Logger(ReviewMemory.name);
  private readonly clients = new Map<string, { loading: Promise<ClientMemories>; expiresAt: number }>();

  constructor(
    private readonly repository: ReviewsRepository,
    private readonly jetstream: JetStreamAdapter,
  ) {}

  onApplicationBootstrap(): void {
    void this.jetstream
      .follow(streams.screenings.name, subjects.screening.memoryChanged, async (payload) => {
        const event = memoryChangedEventSchema.safeParse(payload);
        if (event.success) this.invalidate(event.data.clientId);
      })
      .catch((error: unknown) =>
        this.logger.warn(
          `not following ${subjects.screening.memoryChanged} (cached memories expire after ${CACHE_TTL_MS / 1000} s): ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
  }

  invalidate(clientId: string): void {
    this.clients.delete(clientId);
  }

  /**
   * Clears the review-band results this client has remembered as false positives for exactly
   * this query (`status: clear`, `suppressedBy`, the score kept) and notes the ones whose
   * memory lapsed because the list entry changed. `matches[i]` is the engine match of `results[i]`.
   * Block-band results are never cleared: a memory was made on a review, not on a block.
   */
  async apply(
    clientId: string,
    query: ScreenEntity,
    matches: readonly EngineMatch[],
    results: ScreenResult[],
  ): Promise<ScreenResult[]> {
    if (!results.some((r) => r.status === 'review')) return results;
    const memories = await this.memoriesOf(clientId);
    if (memories.byLookup.size === 0) return results;
    const key = memoryQueryKey(query);
    return results.map((result, i) => {
      if (result.status !== 'review') return result;
      const remembered = memories.byLookup.get(memoryLookup(key, result.id));
      if (!remembered) return result;
      const fingerprint = entityFingerprint(matches[i]!.entity);
      const applies = remembered.find((m) => m.fingerprint === fingerprint);
      if (applies) return { ...result, status: 'clear', suppressedBy: applies.reviewId };
      return {
        ...result,
        memoryNote: `The remembered decision of review ${remembered[0]!.reviewId} no longer applies: the list entry changed (names, dates of birth or identifiers) since it was made.`,
      };
    });
  }

  /** Concurrent screens of a client share one load. */
  private memoriesOf(clientId: string): Promise<ClientMemories> {
    const cached = this.clients.get(clientId);
    return cached && Date.now() < cached.expiresAt ? cached.loading : this.load(clientId);
  }

  private load(clientId: string): Promise<ClientMemories> {
    const loading = this.repository.activeMemories(clientId).then((rows) => {
      const byLookup = new Map<string, ActiveMemory[]>();
      for (const row of rows) {
        const lookup = memoryLookup(row, row.entityId);
        byLookup.set(lookup, [...(byLookup.get(lookup) ?? []), row]);
      }
      return { byLookup };
    });
    const entry = { loading, expiresAt: Date.now() + CACHE_TTL_MS };
    this.clients.set(clientId, entry);
    // A failed load is not cached: the next screen tries again (and this one fails, as a screen would).
    loading.catch(() => {
      if (this.clients.get(clientId) === entry) this.clients.delete(clientId);
    });
    return loading;
  }
}
