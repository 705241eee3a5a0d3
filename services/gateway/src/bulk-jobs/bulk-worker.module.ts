import { Module, type DynamicModule } from '@nestjs/common';
import { DatabaseModule, PlatformModule } from '@vigil/platform';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';
import { GATEWAY_STREAMS } from '../infra/streams.js';
import { BulkJobsRepository } from './bulk-jobs.repository.js';
import { BulkWorkerRunner } from './bulk-worker.runner.js';

/** What a standalone bulk-job worker process (dist/src/bulk-worker.js) needs: no HTTP. */
@Module({})
export class BulkWorkerModule {
  static forRoot(config: Readonly<GatewayConfig>): DynamicModule {
    return {
      module: BulkWorkerModule,
      imports: [
        PlatformModule.forRoot({ service: 'gateway-bulk-worker', identity: 'gateway', config, streams: GATEWAY_STREAMS }),
        DatabaseModule.forRoot({ databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA }),
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: { ...config, BULK_WORKER: true } },
        BulkJobsRepository,
        BulkWorkerRunner,
      ],
    };
  }
}
