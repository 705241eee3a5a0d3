import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';
import { IdempotencyRepository, type Claim } from './idempotency.repository.js';

/**
 * Keeps the Idempotency-Key claims of the requests this replica is still running: all of them
 * renewed in one statement every IDEMPOTENCY_CLAIM_RENEW_MS. A request that runs long keeps its
 * claim however long it takes; when the replica dies the renewals stop, and its claims lapse after
 * IDEMPOTENCY_CLAIM_TAKEOVER_MS, so a retry elsewhere takes over in seconds.
 */
@Injectable()
export class ClaimHeartbeat implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(ClaimHeartbeat.name);
  private readonly held = new Set<Claim>();
  private timer: NodeJS.Timeout | undefined;
  private beating = false;

  constructor(
    private readonly records: IdempotencyRepository,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  hold(claim: Claim): void {
    this.held.add(claim);
  }

  release(claim: Claim): void {
    this.held.delete(claim);
  }

  onModuleInit() {
    this.timer = setInterval(() => void this.beat(), this.config.IDEMPOTENCY_CLAIM_RENEW_MS);
    this.timer.unref();
  }

  // Not at module destroy: Nest closes the HTTP server after that, and the requests it drains
  // keep their claims until then.
  onApplicationShutdown() {
    clearInterval(this.timer);
  }

  private async beat(): Promise<void> {
    // A renewal still waiting on a slow database is not joined by another one.
    if (this.beating || this.held.size === 0) return;
    this.beating = true;
    try {
      await this.records.renew([...this.held]);
    } catch (error) {
      this.logger.warn(`could not renew ${this.held.size} idempotency claims: ${(error as Error).message}`);
    } finally {
      this.beating = false;
    }
  }
}
