import { Module, type DynamicModule } from '@nestjs/common';
import { Database, DatabaseModule, MailTransport, PlatformModule, databaseHealth, healthModule } from '@vigil/platform';
import { AuthClients } from './clients/auth-clients.adapter.js';
import { SecretBox } from './crypto/secret-box.js';
import { BILLING_CONFIG, type BillingConfig } from './env.js';
import { MailOutboxRepository } from './mail/mail-outbox.repository.js';
import { MailOutboxWorker } from './mail/mail-outbox.worker.js';
import { PAYMENT_PROVIDER } from './payments/payment-provider.js';
import { paymentProviderFor } from './payments/payment-provider.factory.js';
import { BillingEventsRepository } from './quota-monitoring/billing-events.repository.js';
import { QuotaMonitoringHandler } from './quota-monitoring/quota-monitoring.handler.js';
import { QuotaMonitoringService } from './quota-monitoring/quota-monitoring.service.js';
import { UsagePeriodsRepository } from './quota-monitoring/usage-periods.repository.js';
import { UsageResets } from './quota-monitoring/usage-resets.service.js';
import { BillingEventsPublisher } from './subscriptions/billing-events.publisher.js';
import { CheckoutSessionsRepository } from './subscriptions/checkout-sessions.repository.js';
import { CustomersRepository } from './subscriptions/customers.repository.js';
import { ProcessedEventsRepository } from './subscriptions/processed-events.repository.js';
import { SubscriptionsHandler } from './subscriptions/subscriptions.handler.js';
import { SubscriptionsService } from './subscriptions/subscriptions.service.js';
import { UpgradesHandler } from './upgrades/upgrades.handler.js';
import { UpgradesRepository } from './upgrades/upgrades.repository.js';
import { UpgradesService } from './upgrades/upgrades.service.js';

@Module({})
export class AppModule {
  static forRoot(config: Readonly<BillingConfig>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({ service: 'billing', config }),
        DatabaseModule.forRoot({ databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA }),
        healthModule('billing', [{ provide: 'DATABASE_HEALTH', useFactory: databaseHealth, inject: [Database] }]),
      ],
      controllers: [SubscriptionsHandler, UpgradesHandler, QuotaMonitoringHandler],
      providers: [
        { provide: BILLING_CONFIG, useValue: config },
        { provide: PAYMENT_PROVIDER, useFactory: () => paymentProviderFor(config) },
        AuthClients,
        BillingEventsPublisher,
        SecretBox,
        MailOutboxRepository,
        {
          provide: MailTransport,
          useFactory: () => new MailTransport({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM }),
        },
        MailOutboxWorker,
        CustomersRepository,
        CheckoutSessionsRepository,
        ProcessedEventsRepository,
        BillingEventsRepository,
        UsagePeriodsRepository,
        UpgradesRepository,
        UsageResets,
        SubscriptionsService,
        UpgradesService,
        QuotaMonitoringService,
      ],
    };
  }
}
