import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import { contracts } from '@vigil/proto';
import { QuotaLeases } from './quota-leases.service.js';

const FLUSH_INTERVAL_MS = 10_000;

/**
 * Copies each client's period usage to the auth service's client record (usage_month),
 * which the admin console's quota monitoring and the account summary read. The
 * gateway's counter stays the authority; this copy trails it by ≤ 10 s. Each flush
 * sends the counter as stored now, so replicas flushing in any order converge.
 */
@Injectable()
export class UsageSync implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(UsageSync.name);
  private readonly dirty = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly leases: QuotaLeases,
    private readonly rpc: RpcClient,
  ) {
    // A settled lease lowers the counter to what was answered: the copy follows.
    leases.onSettled((clientId, period) => this.changed(clientId, period));
  }

  changed(clientId: string, period: string) {
    this.dirty.set(clientId, period);
  }

  onModuleInit() {
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy() {
    clearInterval(this.timer);
    await this.flush();
  }

  async flush(): Promise<void> {
    const batch = [...this.dirty];
    this.dirty.clear();
    for (const [clientId, period] of batch) {
      try {
        const usageMonth = await this.leases.answered(clientId, period);
        // The period rides along: auth ignores a copy of a period older than the client's (a renewal overtook it).
        await this.rpc.request(contracts.clients.updateSubscription, {
          clientId,
          usageMonth,
          usagePeriodStart: period,
        });
      } catch (error) {
        // Try again next time unless a newer change already queued it.
        if (!this.dirty.has(clientId)) this.dirty.set(clientId, period);
        this.logger.warn(
          `usage of ${clientId} not copied to auth yet: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }
}
