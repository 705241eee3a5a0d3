import { Module, type DynamicModule } from '@nestjs/common';
import { DatabaseModule, PlatformModule, healthModule } from '@vigil/platform';
import { ApiModule } from './api.module.js';
import { AuthHttpModule } from './auth/auth.module.js';
import { BillingHttpModule } from './billing/billing.module.js';
import { GATEWAY_CONFIG } from './config.token.js';
import type { GatewayConfig } from './env.js';
import { HealthController } from './health/health.controller.js';
import { HealthService } from './health/health.service.js';
import { GATEWAY_STREAMS } from './infra/streams.js';

@Module({})
export class AppModule {
  static forRoot(config: Readonly<GatewayConfig>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({ service: 'gateway', config, streams: GATEWAY_STREAMS }),
        // The gateway's role reaches no other service's schema: the internet-facing process must
        // not be able to read auth's tables.
        DatabaseModule.forRoot({ databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA }),
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
        HealthService,
      ],
    };
  }
}
