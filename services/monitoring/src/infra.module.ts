import { Global, Module, type DynamicModule } from '@nestjs/common';
import { ClientChangesPublisher } from './client-changes/client-changes.publisher.js';
import { MONITORING_CONFIG } from './config.token.js';
import type { MonitoringConfig } from './env.js';

/**
 * The configuration and the audit-chain publisher, for every feature module (NATS comes from the
 * global PlatformModule).
 */
@Global()
@Module({})
export class InfraModule {
  static forRoot(config: Readonly<MonitoringConfig>): DynamicModule {
    return {
      module: InfraModule,
      providers: [{ provide: MONITORING_CONFIG, useValue: config }, ClientChangesPublisher],
      exports: [MONITORING_CONFIG, ClientChangesPublisher],
    };
  }
}
