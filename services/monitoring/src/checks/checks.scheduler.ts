import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { runDetached } from '@vigil/platform';
import { MONITORING_CONFIG } from '../config.token.js';
import type { MonitoringConfig } from '../env.js';
import { ChecksRepository } from './checks.repository.js';
import { ChecksService } from './checks.service.js';

/**
 * Scheduled checks (daily, weekly, monthly by `next_check_due`). State lives in Postgres, so a
 * restart loses nothing; each pass claims due entities with FOR UPDATE SKIP LOCKED and a lease,
 * so any number of replicas may run it and each entity is checked by one of them.
 */
@Injectable()
export class ChecksScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ChecksScheduler.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  lastRunAt: Date | null = null;

  constructor(
    private readonly checks: ChecksRepository,
    private readonly service: ChecksService,
    @Inject(MONITORING_CONFIG) private readonly config: MonitoringConfig,
  ) {}

  get enabled(): boolean {
    return this.config.MONITORING_SCHEDULER && !this.stopped;
  }

  onApplicationBootstrap(): void {
    if (this.config.MONITORING_SCHEDULER) this.schedule(0);
  }

  /** Run a pass now (new entities, an uploaded list) instead of at the next tick. */
  kick(): void {
    if (!this.enabled) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  private schedule(delayMs: number) {
    if (this.stopped) return;
    clearTimeout(this.timer);
    // Detached: a pass kicked by an upload checks every due entity, other lists' and other
    // clients' too, and would otherwise screen them all under that upload's request id and trace.
    this.timer = runDetached(() => setTimeout(() => void this.pass(), delayMs));
  }

  private async pass(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = (async () => {
      try {
        do {
          this.again = false;
          for (;;) {
            if (this.stopped) return;
            const due = await this.checks.claimDue(this.config.SCHEDULER_BATCH, this.config.CHECK_LEASE_MS);
            if (due.length === 0) break;
            await this.service.check(due);
          }
        } while (this.again);
        this.lastRunAt = new Date();
      } catch (error) {
        this.logger.warn(`scheduled checks failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    })();
    await this.running;
    this.running = undefined;
    this.schedule(this.config.SCHEDULER_INTERVAL_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
