import { Global, Module, type DynamicModule } from '@nestjs/common';
import { ClientsModule } from '@nestjs/microservices';
import { NATS_CLIENT, RpcClient, natsClientOptions } from '@vigil/platform';
import { MONITORING_CONFIG } from './config.token.js';
import type { MonitoringConfig } from './env.js';

/** The configuration and the NATS request client, for every feature module. */
@Global()
@Module({})
export class InfraModule {
  static forRoot(config: Readonly<MonitoringConfig>): DynamicModule {
    return {
      module: InfraModule,
      imports: [ClientsModule.register([{ name: NATS_CLIENT, ...natsClientOptions(config.NATS_URL, 'monitoring') }])],
      providers: [
        { provide: MONITORING_CONFIG, useValue: config },
        { provide: 'RPC_TIMEOUT_MS', useValue: config.NATS_REQUEST_TIMEOUT_MS },
        RpcClient,
      ],
      exports: [MONITORING_CONFIG, 'RPC_TIMEOUT_MS', RpcClient, ClientsModule],
    };
  }
}
