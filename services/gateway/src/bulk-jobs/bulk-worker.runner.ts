import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { EventPublisher, Nats, RpcClient } from '@vigil/platform';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';
import { BulkJobsRepository } from './bulk-jobs.repository.js';
import { BulkWorker } from './bulk-worker.js';

/** Starts a bulk-job worker in this process when BULK_WORKER is on. */
@Injectable()
export class BulkWorkerRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(BulkWorkerRunner.name);
  private worker: BulkWorker | undefined;

  constructor(
    private readonly nats: Nats,
    private readonly events: EventPublisher,
    private readonly rpc: RpcClient,
    private readonly jobs: BulkJobsRepository,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  onApplicationBootstrap() {
    if (this.config.BULK_WORKER) void this.start();
  }

  /** Keeps trying: the broker or JetStream may come up after the gateway. */
  private async start() {
    try {
      await this.nats.streamsReady();
      const worker = new BulkWorker(this.nats, this.events, this.rpc, this.jobs, this.config);
      await worker.start();
      if (this.stopped) return void (await worker.stop());
      this.worker = worker;
      this.logger.log('bulk-job worker started');
    } catch (error) {
      if (this.stopped) return;
      this.logger.warn(`bulk-job worker not started yet: ${error instanceof Error ? error.message : String(error)}`);
      this.retry = setTimeout(() => void this.start(), 5_000);
      this.retry.unref();
    }
  }

  async onApplicationShutdown() {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.worker?.stop();
  }
}
