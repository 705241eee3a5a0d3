import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Database } from '@vigil/platform';
import { AUDIT_CONFIG } from '../config.token.js';
import type { AuditConfig } from '../env.js';
import { applyRetention } from './retention.js';

const HOUR_MS = 3_600_000;
const FIRST_RUN_MS = 60_000;

/** Applies the retention setting every AUDIT_RETENTION_EVERY_HOURS (0 = only by `npm run audit:retention`). */
@Injectable()
export class RetentionScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RetentionScheduler.name);
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly db: Database,
    @Inject(AUDIT_CONFIG) private readonly config: AuditConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.AUDIT_RETENTION_EVERY_HOURS === 0) return;
    this.timer = setTimeout(() => void this.tick(), FIRST_RUN_MS);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    try {
      const outcome = await this.db.transaction((tx) =>
        applyRetention((text, params) => tx.query(text, params), {
          screeningDays: this.config.AUDIT_RETENTION_SCREENING_DAYS,
          securityDays: this.config.AUDIT_RETENTION_SECURITY_DAYS,
        }),
      );
      if (outcome.rowsRemoved > 0)
        this.logger.log(`retention removed ${outcome.rowsRemoved} rows in ${outcome.segments} segments`);
    } catch (error) {
      this.logger.error(`retention failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.timer = setTimeout(() => void this.tick(), this.config.AUDIT_RETENTION_EVERY_HOURS * HOUR_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearTimeout(this.timer);
  }
}
