export { ConfigError, baseEnvSchema, envSchemas, parseConfig, productionRules } from './config.js';
export type { BaseConfig } from './config.js';
export { currentRequestId, runDetached, runWithRequestId, sanitizeRequestId } from './context.js';
export { createLogger, PinoNestLogger } from './logger.js';
export { DomainError, fieldErrorsFromZod } from './errors.js';
export { parseMessage } from './validation.js';
export {
  Nats,
  NatsServer,
  RPC_TIMEOUT_MS,
  RpcClient,
  RequestIdInterceptor,
  connectNats,
  natsConnectionOptions,
} from './nats.js';
export type { NatsIdentity } from './nats.js';
export { EventPublisher } from './events.js';
export type { StoredEvent } from './events.js';
export { Responder } from './responder.js';
export { PlatformModule } from './platform.module.js';
export type { PlatformOptions } from './platform.module.js';
export { RpcErrorFilter } from './rpc-error.filter.js';
export { HEALTH_INDICATORS, healthModule, runHealthChecks, startProbeServer } from './health.js';
export type { HealthIndicator } from './health.js';
export {
  Database,
  DatabaseModule,
  createDatabase,
  databaseHealth,
  roleDatabaseUrl,
  runMigrations,
  serviceRole,
} from './database.js';
export type {
  DatabaseOptions,
  IsolationLevel,
  QueryResult,
  Queryable,
  Row,
  SchemaOptions,
  Transaction,
} from './database.js';
export {
  bootstrapService,
  loadConfigOrExit,
  migrateAndExit,
  migrationTarget,
  startProbes,
  waitForDatabaseOrExit,
} from './bootstrap.js';
export type { Probes, ServiceBoot } from './bootstrap.js';
export { DatabaseUnreachableError, databaseTarget, waitForDatabase } from './database-wait.js';
export type { ConnectFailure, WaitForDatabaseOptions } from './database-wait.js';
export { VIGIL_VERSION } from './version.js';
export { SEALED_PREFIX, isSealed, openSecret, sealSecret } from './sealed-secret.js';
export { limiterAddress } from './limiter-address.js';
export { ProcessedMessages1763800000000 } from './processed-messages.migration.js';
export { Handles, OnEvent, checkReply } from './contracts.js';
export { ensureStreams } from './streams.js';
export type { StreamSpec } from './streams.js';
export {
  LATENCY_BUCKETS,
  RequestWindow,
  defineCounter,
  defineGauge,
  defineHistogram,
  gaugeFrom,
  metricsRegistry,
  metricsText,
  observeHttpRequest,
  observeNatsHandled,
  quantile,
  requestSummary,
  startMetrics,
} from './metrics.js';
export type { GaugeReading } from './metrics.js';
export { ObservabilityInterceptor, accessLogged, startAccessLog } from './observability.interceptor.js';
export {
  contextFromHeaders,
  contextFromTraceparent,
  currentTraceIds,
  currentTraceparent,
  endSpan,
  inSpan,
  injectTraceHeaders,
  startSpan,
  startTracing,
  withContext,
} from './tracing.js';
export type { HeaderCarrier, TracingOptions } from './tracing.js';
export { MailTransport, mailEnv } from './mail.js';
export type { OutgoingMail, SentMail } from './mail.js';
