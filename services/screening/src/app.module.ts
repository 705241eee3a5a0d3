import { Global, Module, type DynamicModule, type Provider } from '@nestjs/common';
import { Database, DatabaseModule, PlatformModule, databaseHealth, healthModule } from '@vigil/platform';
import { streams } from '@vigil/proto';
import { CatalogHandler } from './catalog/catalog.handler.js';
import { CatalogRepository } from './catalog/catalog.repository.js';
import { CatalogService } from './catalog/catalog.service.js';
import { SCREENING_CONFIG } from './config.token.js';
import type { ScreeningConfig } from './env.js';
import { JetStreamAdapter } from './events/jetstream.adapter.js';
import { OutboxRelay } from './events/outbox.relay.js';
import { OutboxRepository } from './events/outbox.repository.js';
import { ElasticsearchEngine } from './index/elasticsearch.engine.js';
import { InProcessEngine } from './index/in-process.engine.js';
import { IndexRepository } from './index/index.repository.js';
import { IndexService } from './index/index.service.js';
import { OpenSearchEngine } from './index/opensearch.engine.js';
import { CANDIDATE_INDEX } from './index/index.tokens.js';
import { IngestionHandler } from './ingestion/ingestion.handler.js';
import { IngestionRepository } from './ingestion/ingestion.repository.js';
import { IngestionScheduler } from './ingestion/ingestion.scheduler.js';
import { IngestionService } from './ingestion/ingestion.service.js';
import { ListFetcher } from './ingestion/list-fetcher.js';
import { ListAdminHandler } from './list-admin/list-admin.handler.js';
import { ListAdminRepository } from './list-admin/list-admin.repository.js';
import { ListAdminService } from './list-admin/list-admin.service.js';
import {
  SCREENING_LOG_DATABASE,
  ScreeningLogsRepository,
  screeningLogDatabase,
} from './screening-logs/screening-logs.repository.js';
import { ScreeningLogWriter } from './screening-logs/screening-logs.writer.js';
import { ScreeningLogsHandler } from './screening-logs/screening-logs.handler.js';
import { ScreeningLogsReadRepository } from './screening-logs/screening-logs.read-repository.js';
import { ScreeningLogsService } from './screening-logs/screening-logs.service.js';
import { ReviewMemory } from './reviews/review-memory.js';
import { ReviewsHandler } from './reviews/reviews.handler.js';
import { ReviewsRepository } from './reviews/reviews.repository.js';
import { ReviewsService } from './reviews/reviews.service.js';
import { PaymentScreeningHandler } from './payments/payment-screening.handler.js';
import { PaymentScreeningService } from './payments/payment-screening.service.js';
import { ScreeningHandler } from './screening/screening.handler.js';
import { ScreeningService } from './screening/screening.service.js';
import { SourcesRepository } from './sources/sources.repository.js';

function providers(config: Readonly<ScreeningConfig>): Provider[] {
  return [
    { provide: SCREENING_CONFIG, useValue: config },
    {
      provide: CANDIDATE_INDEX,
      useFactory: () => {
        switch (config.INDEX_ENGINE) {
          case 'opensearch':
            return new OpenSearchEngine({ url: config.OPENSEARCH_URL!, prefix: config.OPENSEARCH_INDEX_PREFIX });
          case 'elasticsearch':
            return new ElasticsearchEngine({
              url: config.ELASTICSEARCH_URL!,
              prefix: config.ELASTICSEARCH_INDEX_PREFIX,
            });
          case 'in-process':
            return new InProcessEngine({}, { workers: config.INDEX_WORKERS });
        }
      },
    },
    { provide: ListFetcher, useFactory: () => new ListFetcher(config.LISTS_CACHE_DIR, config.LISTS_FETCH_TIMEOUT_MS) },
    JetStreamAdapter,
    OutboxRepository,
    OutboxRelay,
    SourcesRepository,
    IndexRepository,
    IndexService,
    IngestionRepository,
    IngestionService,
    IngestionScheduler,
    { provide: SCREENING_LOG_DATABASE, useFactory: () => screeningLogDatabase(config) },
    ScreeningLogsRepository,
    ScreeningLogWriter,
    ScreeningService,
    PaymentScreeningService,
    CatalogRepository,
    CatalogService,
    ScreeningLogsReadRepository,
    ScreeningLogsService,
    ListAdminRepository,
    ListAdminService,
    ReviewsRepository,
    ReviewMemory,
    ReviewsService,
  ];
}

/**
 * The service's providers in one global module: the features share the index, the
 * outbox and the sources table, and the health module's index check needs the index.
 */
@Global()
@Module({})
class ScreeningCoreModule {
  static forRoot(config: Readonly<ScreeningConfig>): DynamicModule {
    const all = providers(config);
    return { module: ScreeningCoreModule, providers: all, exports: all };
  }
}

@Module({})
export class AppModule {
  static forRoot(config: Readonly<ScreeningConfig>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({
          service: 'screening',
          config,
          streams: [
            { ...streams.lists, maxAgeDays: 90 },
            { ...streams.screenings, maxAgeDays: 30 },
          ],
        }),
        DatabaseModule.forRoot({ databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA }),
        ScreeningCoreModule.forRoot(config),
        healthModule('screening', [
          { provide: 'DATABASE_HEALTH', useFactory: databaseHealth, inject: [Database] },
          {
            provide: 'INDEX_HEALTH',
            useFactory: (index: IndexService) => index.healthIndicator(),
            inject: [IndexService],
          },
        ]),
      ],
      controllers: [
        ScreeningHandler,
        PaymentScreeningHandler,
        CatalogHandler,
        IngestionHandler,
        ScreeningLogsHandler,
        ListAdminHandler,
        ReviewsHandler,
      ],
    };
  }
}
