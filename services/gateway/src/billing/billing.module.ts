import { Module, type DynamicModule } from '@nestjs/common';
import { AdminActions } from '../audit/admin-actions.publisher.js';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';
import { BillingController } from './billing.controller.js';

/** Billing's HTTP routes over NATS; the global credentials guard (ApiModule) covers them. */
@Module({})
export class BillingHttpModule {
  static forRoot(config: Readonly<GatewayConfig>): DynamicModule {
    return {
      module: BillingHttpModule,
      controllers: [BillingController],
      providers: [
        // A tier change is recorded for the audit trail.
        { provide: GATEWAY_CONFIG, useValue: config },
        AdminActions,
      ],
    };
  }
}
