import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { EventPublisher } from '@vigil/platform';
import { OutboxRepository, type StoredOutboxMessage } from './outbox.repository.js';

const BATCH = 200;
/** outbox_batches rows per transaction: each holds at most EVENTS_PER_OUTBOX_BATCH events. */
const BATCHES = 50;
const IDLE_POLL_MS = 2000;
const RETRY_MS = 5000;
const NUDGE_DELAY_MS = 200;

/**
 * Moves outbox rows, and outbox_batches rows (the screening log's events), to JetStream. Nudged
 * after a commit, it publishes within a fifth of a second; it polls slowly otherwise, which also retries after a broker outage. A pass waits
 * NUDGE_DELAY_MS after the nudge (or after the previous pass, under load) instead of starting
 * at once: every pass is a transaction of several statements and a window of publishes, so
 * passes of a few rows each cost Postgres, NATS and this event loop more than the screens they
 * report. At 25 ms a single screen at a time paid 0.25 ms more CPU, 0.05 ms more NATS CPU and
 * 0.35 ms more latency than at 200 ms; the consumers (audit, monitoring) do not need it sooner.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OutboxRelay.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private nudged = false;
  private stopped = false;

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly events: EventPublisher,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  /**
   * Publish soon. Nudges within a few milliseconds share one pass, so a burst of screens
   * costs one outbox round trip rather than one each.
   */
  nudge(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.nudged) return;
    this.nudged = true;
    this.schedule(NUDGE_DELAY_MS);
  }

  /** Resolves once everything committed before the call has been published (or a pass failed). */
  async flush(): Promise<void> {
    await this.running;
    await this.pass();
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.pass(), ms);
    this.timer.unref();
  }

  private pass(): Promise<void> {
    if (this.running) return this.running;
    this.nudged = false;
    this.again = false;
    this.running = (async () => {
      let delay = IDLE_POLL_MS;
      try {
        const publish = (window: readonly StoredOutboxMessage[]) => this.events.publishStored(window);
        for (;;) {
          const taken = await this.outbox.drain(BATCH, BATCHES, publish);
          if (taken.rows < BATCH && taken.batches < BATCHES) break;
        }
        if (this.again) {
          // Nudged meanwhile: the next pass is scheduled below, and later nudges wait for it.
          delay = NUDGE_DELAY_MS;
          this.nudged = true;
        }
      } catch (error) {
        delay = RETRY_MS;
        if (!this.stopped) this.logger.warn(`publishing events failed, will retry: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        this.running = undefined;
        this.schedule(delay);
      }
    })();
    return this.running;
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
