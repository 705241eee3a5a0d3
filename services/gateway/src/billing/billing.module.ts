import { Module, type DynamicModule } from '@nestjs/common';
import { ClientsModule } from '@nestjs/microservices';
import { NATS_CLIENT, RpcClient, natsClientOptions } from '@vigil/platform';
import { AdminActions } from '../audit/admin-actions.publisher.js';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';
import { NatsStreams } from '../infra/jetstream.js';
import { BillingController } from './billing.controller.js';

/** Billing's HTTP routes over NATS; the global credentials guard (ApiModule) covers them. */
@Module({})
export class BillingHttpModule {
  static forRoot(config: Readonly<GatewayConfig>): DynamicModule {
    return {
      module: BillingHttpModule,
      imports: [ClientsModule.register([{ name: NATS_CLIENT, ...natsClientOptions(config.NATS_URL, 'gateway-billing') }])],
      controllers: [BillingController],
      providers: [
        { provide: 'RPC_TIMEOUT_MS', useValue: config.NATS_REQUEST_TIMEOUT_MS },
        RpcClient,
        // A tier change is recorded for the audit trail (its connection opens on the first one).
        { provide: GATEWAY_CONFIG, useValue: config },
        NatsStreams,
        AdminActions,
      ],
    };
  }
}
