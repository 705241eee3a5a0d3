import { Module, type DynamicModule } from '@nestjs/common';
import {
  Database,
  DatabaseModule,
  PlatformModule,
  databaseHealth,
  healthModule,
  type DatabaseOptions,
} from '@vigil/platform';
import { AUDIT_CONFIG } from './config.token.js';
import type { AuditConfig } from './env.js';
import { EvidenceHandler } from './evidence/evidence.handler.js';
import { EvidenceRepository } from './evidence/evidence.repository.js';
import { AuditConsumers } from './ingest/audit-consumers.js';
import { RetentionScheduler } from './retention/retention.scheduler.js';
import { SecurityLogsHandler } from './security-logs/security-logs.handler.js';
import { SecurityLogsRepository } from './security-logs/security-logs.repository.js';
import { AuditTrailRepository } from './trail/audit-trail.repository.js';

/**
 * The service's connections take the append-only role at connect: whatever the code does, the
 * database refuses it an UPDATE or a DELETE on the audit tables.
 */
export function auditDatabaseOptions(config: Readonly<AuditConfig>): DatabaseOptions {
  // Logs in as its own role, vigil_audit, which has no rights on the tables of its own: it is a
  // member of the append-only and retention roles (migrate.js), and the setting below takes the first.
  return { databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA, settings: { role: config.AUDIT_DB_ROLE } };
}

@Module({})
export class AppModule {
  static forRoot(config: Readonly<AuditConfig>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({ service: 'audit', config }),
        DatabaseModule.forRoot(auditDatabaseOptions(config)),
        healthModule('audit', [{ provide: 'DATABASE_HEALTH', useFactory: databaseHealth, inject: [Database] }]),
      ],
      controllers: [SecurityLogsHandler, EvidenceHandler],
      providers: [
        { provide: AUDIT_CONFIG, useValue: config },
        AuditTrailRepository,
        AuditConsumers,
        SecurityLogsRepository,
        EvidenceRepository,
        RetentionScheduler,
      ],
    };
  }
}
