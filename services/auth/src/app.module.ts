import { Module, type DynamicModule } from '@nestjs/common';
import { Database, DatabaseModule, PlatformModule, databaseHealth, healthModule } from '@vigil/platform';
import { streams } from '@vigil/proto';
import { AuthHandler } from './auth/auth.handler.js';
import { AuthService } from './auth/auth.service.js';
import { OneTimeTokensRepository } from './auth/one-time-tokens.repository.js';
import { ApiKeysRepository } from './clients/api-keys.repository.js';
import { ClientsHandler } from './clients/clients.handler.js';
import { ClientsRepository } from './clients/clients.repository.js';
import { ClientsService } from './clients/clients.service.js';
import { PasswordHasher } from './crypto/password-hasher.js';
import { SecretBox } from './crypto/secret-box.js';
import { AUTH_CONFIG, type AuthConfig } from './env.js';
import { EventsPublisher } from './events/events.publisher.js';
import { InvitationsRepository } from './invitations/invitations.repository.js';
import { InvitationsService } from './invitations/invitations.service.js';
import { LoginAttemptsRepository } from './limiter/login-attempts.repository.js';
import { LoginLimiter } from './limiter/login-limiter.service.js';
import { MailboxHandler } from './mail/mailbox.handler.js';
import { MailboxRepository } from './mail/mailbox.repository.js';
import { MailThrottleRepository } from './mail/mail-throttle.repository.js';
import { Mailer } from './mail/mailer.service.js';
import { MfaHandler } from './mfa/mfa.handler.js';
import { MfaRepository } from './mfa/mfa.repository.js';
import { MfaService } from './mfa/mfa.service.js';
import { OidcHandler } from './oidc/oidc.handler.js';
import { OidcRepository } from './oidc/oidc.repository.js';
import { OidcService } from './oidc/oidc.service.js';
import { SessionsRepository } from './sessions/sessions.repository.js';
import { SessionsService } from './sessions/sessions.service.js';
import { SettingsHandler } from './settings/settings.handler.js';
import { SettingsRepository } from './settings/settings.repository.js';
import { SettingsService } from './settings/settings.service.js';
import { TeamHandler } from './team/team.handler.js';
import { TeamRepository } from './team/team.repository.js';
import { TeamService } from './team/team.service.js';
import { SigningKeysRepository } from './tokens/signing-keys.repository.js';
import { AccessTokens } from './tokens/access-tokens.service.js';
import { UsersRepository } from './users/users.repository.js';

/** Everything the auth service runs; `seed.ts` builds the same graph without the NATS server. */
export function authProviders(config: Readonly<AuthConfig>) {
  return [
    { provide: AUTH_CONFIG, useValue: config },
    EventsPublisher,
    PasswordHasher,
    SecretBox,
    SigningKeysRepository,
    AccessTokens,
    UsersRepository,
    SessionsRepository,
    SessionsService,
    OneTimeTokensRepository,
    LoginAttemptsRepository,
    LoginLimiter,
    InvitationsRepository,
    InvitationsService,
    MailboxRepository,
    MailThrottleRepository,
    Mailer,
    AuthService,
    MfaRepository,
    MfaService,
    OidcRepository,
    OidcService,
    ClientsRepository,
    ApiKeysRepository,
    ClientsService,
    SettingsRepository,
    SettingsService,
    TeamRepository,
    TeamService,
  ];
}

@Module({})
export class AppModule {
  static forRoot(config: Readonly<AuthConfig>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        // AUTH_EVENTS: failed sign-ins, kept for the audit service (90 days, as the gateway's security events).
        PlatformModule.forRoot({ service: 'auth', config, streams: [{ ...streams.authEvents, maxAgeDays: 90 }] }),
        DatabaseModule.forRoot({ databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA }),
        healthModule('auth', [{ provide: 'DATABASE_HEALTH', useFactory: databaseHealth, inject: [Database] }]),
      ],
      controllers: [AuthHandler, MfaHandler, OidcHandler, ClientsHandler, SettingsHandler, TeamHandler, MailboxHandler],
      providers: authProviders(config),
    };
  }
}
