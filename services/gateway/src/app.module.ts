import { Module, type DynamicModule } from '@nestjs/common';
import { ClientsModule } from '@nestjs/microservices';
import { NATS_CLIENT, RpcClient, healthModule, natsClientOptions } from '@vigil/platform';
import { ApiModule } from './api.module.js';
import { AuthHttpModule } from './auth/auth.module.js';
import { BillingHttpModule } from './billing/billing.module.js';
import { GATEWAY_CONFIG } from './config.token.js';
import type { GatewayConfig } from './env.js';
import { HealthController } from './health/health.controller.js';
import { HealthService } from './health/health.service.js';

@Module({})
export class AppModule {
  static forRoot(config: Readonly<GatewayConfig>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ClientsModule.register([{ name: NATS_CLIENT, ...natsClientOptions(config.NATS_URL, 'gateway') }]),
        healthModule('gateway'),
        // Express tries routes in registration order: the public API (POST /api/v1/screen above
        // all) first, so the hot route is not matched against every auth route before it.
        ApiModule.forRoot(config),
        AuthHttpModule.forRoot(config),
        BillingHttpModule.forRoot(config),
      ],
      controllers: [HealthController],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: 'RPC_TIMEOUT_MS', useValue: config.NATS_REQUEST_TIMEOUT_MS },
        RpcClient,
        HealthService,
      ],
    };
  }
}
