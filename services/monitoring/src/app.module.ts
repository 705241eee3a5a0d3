import { Module, type DynamicModule } from '@nestjs/common';
import { Database, DatabaseModule, PlatformModule, databaseHealth, healthModule } from '@vigil/platform';
import { streams } from '@vigil/proto';
import { ClientListsModule } from './client-lists/client-lists.module.js';
import type { MonitoringConfig } from './env.js';
import { InfraModule } from './infra.module.js';
import { ListUpdatesModule } from './list-updates/list-updates.module.js';
import { MonitoredEntitiesModule } from './monitored-entities/monitored-entities.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';

@Module({})
export class AppModule {
  static forRoot(config: Readonly<MonitoringConfig>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        // MONITORING_EVENTS is monitoring's: it creates the stream the audit service reads.
        PlatformModule.forRoot({
          service: 'monitoring',
          config,
          streams: [{ ...streams.monitoringEvents, maxAgeDays: 90 }],
        }),
        InfraModule.forRoot(config),
        DatabaseModule.forRoot({ databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA }),
        ClientListsModule,
        MonitoredEntitiesModule,
        ListUpdatesModule,
        WebhooksModule,
        healthModule('monitoring', [{ provide: 'DATABASE_HEALTH', useFactory: databaseHealth, inject: [Database] }]),
      ],
    };
  }
}
