import { Injectable } from '@nestjs/common';
import { DomainError } from '@vigil/platform';
import { OutboxRelay } from '../events/outbox.relay.js';
import type { ScreeningLogEntry } from './screening-log.js';
import { ScreeningLogsRepository } from './screening-logs.repository.js';

const MAX_BATCH = 2000;

/**
 * Every screen is logged before it is answered. Concurrent screens share one transaction:
 * entries that arrive while a write is in flight go together in the next one, so logging
 * costs one round trip when idle and scales with load instead of per request.
 */
@Injectable()
export class ScreeningLogWriter {
  private pending: Array<{ entries: readonly ScreeningLogEntry[]; done: (error?: unknown) => void }> = [];
  private writing = false;

  constructor(
    private readonly repository: ScreeningLogsRepository,
    private readonly relay: OutboxRelay,
  ) {}

  record(entries: readonly ScreeningLogEntry[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ entries, done: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!this.writing) {
        this.writing = true;
        // The first write of a burst waits for the end of this turn of the event loop: the other
        // requests that arrived with this one (one socket read often holds several) are screened
        // in the same turn and join its batch, instead of each costing a write of its own.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch: typeof this.pending = [];
        let size = 0;
        while (this.pending.length > 0 && (batch.length === 0 || size + this.pending[0]!.entries.length <= MAX_BATCH)) {
          const next = this.pending.shift()!;
          batch.push(next);
          size += next.entries.length;
        }
        try {
          const late = await this.repository.record(batch.flatMap((b) => b.entries));
          batch.forEach((b) => b.done(b.entries.some((e) => late.has(e.id)) ? lapsed() : undefined));
          this.relay.nudge();
        } catch (error) {
          batch.forEach((b) => b.done(error));
        }
      }
    } finally {
      this.writing = false;
    }
  }
}

/**
 * A screen that reached screening after its quota lease's answer-by time: it is not logged, so it
 * must not be answered. The gateway renews leases long before that, so this means a stalled
 * gateway or a request that waited too long; the caller retries under a fresh lease.
 */
const lapsed = () =>
  new DomainError(
    'SERVICE_UNAVAILABLE',
    'The screen arrived after its quota lease lapsed and was not performed; retry it.',
    undefined,
    1,
  );
