import { Module, type DynamicModule } from '@nestjs/common';
import { ClientsModule } from '@nestjs/microservices';
import { NATS_CLIENT, RpcClient, natsClientOptions } from '@vigil/platform';
import type { GatewayConfig } from '../env.js';
import { BillingController } from './billing.controller.js';

/** Billing's HTTP routes over NATS; the global credentials guard (ApiModule) covers them. */
@Module({})
export class BillingHttpModule {
  static forRoot(config: Readonly<GatewayConfig>): DynamicModule {
    return {
      module: BillingHttpModule,
      imports: [ClientsModule.register([{ name: NATS_CLIENT, ...natsClientOptions(config.NATS_URL, 'gateway-billing') }])],
      controllers: [BillingController],
      providers: [{ provide: 'RPC_TIMEOUT_MS', useValue: config.NATS_REQUEST_TIMEOUT_MS }, RpcClient],
    };
  }
}
