import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AdminConsoleController } from './admin-console/admin-console.controller.js';
import { AdminOverview } from './admin-console/admin-overview.service.js';
import { AdminActions } from './audit/admin-actions.publisher.js';
import { AuditController } from './audit/audit.controller.js';
import { ListsAdminController } from './audit/lists-admin.controller.js';
import { BulkJobsRepository } from './bulk-jobs/bulk-jobs.repository.js';
import { BulkJobs } from './bulk-jobs/bulk-jobs.service.js';
import { BulkWorkerRunner } from './bulk-jobs/bulk-worker.runner.js';
import { ClientsController } from './clients/clients.controller.js';
import { ClientListsController } from './client-lists/client-lists.controller.js';
import { ClientLists } from './client-lists/client-lists.service.js';
import { GATEWAY_CONFIG } from './config.token.js';
import { DashboardReportsController } from './dashboard-reports/dashboard-reports.controller.js';
import { DashboardReports } from './dashboard-reports/dashboard-reports.service.js';
import { ApiKeys } from './credentials/api-keys.service.js';
import { CredentialsGuard } from './credentials/credentials.guard.js';
import { SessionTokens } from './credentials/session-tokens.service.js';
import type { GatewayConfig } from './env.js';
import { ClaimHeartbeat } from './idempotency/claim-heartbeat.js';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor.js';
import { IdempotencyRepository } from './idempotency/idempotency.repository.js';
import { MonitoringController } from './monitoring/monitoring.controller.js';
import { LiveSocketServer, LiveTickets } from './monitoring/live-socket.js';
import { LiveStreams } from './monitoring/live-streams.js';
import { Monitoring } from './monitoring/monitoring.service.js';
import { QuotaLeasesRepository } from './quotas/quota-leases.repository.js';
import { QuotaLeases } from './quotas/quota-leases.service.js';
import { LEASE_ANSWERS, ScreeningLeaseAnswers } from './quotas/lease-answers.js';
import { Quotas } from './quotas/quotas.service.js';
import { UsageSync } from './quotas/usage-sync.service.js';
import { RateLimits } from './rate-limits/rate-limits.service.js';
import { CatalogueController } from './screening-api/catalogue.controller.js';
import { DashboardController } from './screening-api/dashboard.controller.js';
import { ScreeningApiController } from './screening-api/screening-api.controller.js';
import { ScreeningApi } from './screening-api/screening-api.service.js';
import { ReviewsController } from './reviews/reviews.controller.js';
import { ScreeningLogsController } from './screening-logs/screening-logs.controller.js';
import { SecurityEvents } from './security-events/security-events.publisher.js';
import { TeamController } from './team/team.controller.js';

/**
 * The client-facing API: credentials and rate limits (a global guard, so every
 * route marked with @Credentials is covered), quotas, idempotency, screening over
 * NATS and asynchronous bulk jobs.
 */
@Module({})
export class ApiModule {
  static forRoot(config: Readonly<GatewayConfig>): DynamicModule {
    return {
      module: ApiModule,
      controllers: [
        ScreeningApiController,
        DashboardController,
        CatalogueController,
        ScreeningLogsController,
        ReviewsController,
        ClientListsController,
        MonitoringController,
        ClientsController,
        AuditController,
        ListsAdminController,
        AdminConsoleController,
        DashboardReportsController,
        TeamController,
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        SecurityEvents,
        AdminActions,
        AdminOverview,
        ApiKeys,
        SessionTokens,
        RateLimits,
        CredentialsGuard,
        // One instance: the direct screen route (http/direct-route.ts) runs this same guard.
        { provide: APP_GUARD, useExisting: CredentialsGuard },
        QuotaLeasesRepository,
        { provide: LEASE_ANSWERS, useClass: ScreeningLeaseAnswers },
        QuotaLeases,
        Quotas,
        UsageSync,
        IdempotencyRepository,
        ClaimHeartbeat,
        IdempotencyInterceptor,
        BulkJobsRepository,
        BulkJobs,
        BulkWorkerRunner,
        ScreeningApi,
        ClientLists,
        DashboardReports,
        Monitoring,
        LiveStreams,
        LiveTickets,
        LiveSocketServer,
      ],
    };
  }
}
