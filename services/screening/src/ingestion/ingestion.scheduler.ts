import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { SCREENING_CONFIG } from '../config.token.js';
import type { ScreeningConfig } from '../env.js';
import { IngestionService, type RefreshTrigger } from './ingestion.service.js';

const TICK_MS = 60_000;

/**
 * Refreshes each source when its cadence is due (due-ness lives in Postgres, so restarts
 * and replicas agree), starting with a pass at boot that also checks every source whose
 * location changed or whose files are local (a new LISTS_DIR or an edited file is ingested
 * at start, not at the next cadence). Off when LISTS_SCHEDULER=false.
 */
@Injectable()
export class IngestionScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(IngestionScheduler.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    @Inject(SCREENING_CONFIG) private readonly config: ScreeningConfig,
    private readonly ingestion: IngestionService,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.LISTS_SCHEDULER) {
      this.logger.log('list scheduler off (LISTS_SCHEDULER=false): following list versions only');
      return;
    }
    void this.tick('startup');
    this.timer = setInterval(() => void this.tick('schedule'), TICK_MS);
    this.timer.unref();
  }

  private tick(trigger: RefreshTrigger): Promise<void> {
    this.running ??= this.ingestion
      .refreshAll(trigger)
      .then(() => undefined)
      .catch((error: unknown) => this.logger.error(`scheduled refresh failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
  }
}
