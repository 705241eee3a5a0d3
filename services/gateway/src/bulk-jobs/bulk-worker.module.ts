import { Module, type DynamicModule } from '@nestjs/common';
import { ClientsModule } from '@nestjs/microservices';
import { DatabaseModule, NATS_CLIENT, RpcClient, natsClientOptions } from '@vigil/platform';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';
import { NatsStreams } from '../infra/jetstream.js';
import { BulkJobsRepository } from './bulk-jobs.repository.js';
import { BulkWorkerRunner } from './bulk-worker.runner.js';

/** What a standalone bulk-job worker process (dist/src/bulk-worker.js) needs: no HTTP. */
@Module({})
export class BulkWorkerModule {
  static forRoot(config: Readonly<GatewayConfig>): DynamicModule {
    return {
      module: BulkWorkerModule,
      imports: [
        ClientsModule.register([{ name: NATS_CLIENT, ...natsClientOptions(config.NATS_URL, 'gateway-bulk-worker') }]),
        DatabaseModule.forRoot({ databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA }),
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: { ...config, BULK_WORKER: true } },
        { provide: 'RPC_TIMEOUT_MS', useValue: config.NATS_REQUEST_TIMEOUT_MS },
        RpcClient,
        NatsStreams,
        BulkJobsRepository,
        BulkWorkerRunner,
      ],
    };
  }
}
