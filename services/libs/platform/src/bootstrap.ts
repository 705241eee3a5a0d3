import 'reflect-metadata';
import type { DynamicModule, INestApplication, INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { ServiceName } from '@vigil/proto';
import type { z } from 'zod';
import { ConfigError, parseConfig, type BaseConfig } from './config.js';
import { startProbeServer, runHealthChecks, HEALTH_INDICATORS, type HealthIndicator } from './health.js';
import { createLogger, PinoNestLogger } from './logger.js';
import type { Logger } from 'pino';
import { Nats, NatsServer, RequestIdInterceptor } from './nats.js';
import { startMetrics } from './metrics.js';
import { ObservabilityInterceptor, startAccessLog } from './observability.interceptor.js';
import { startTracing } from './tracing.js';
import { RpcErrorFilter } from './rpc-error.filter.js';
import { runMigrations, serviceRole, type SchemaOptions } from './database.js';
import { DatabaseUnreachableError, databaseTarget, waitForDatabase, type ConnectFailure } from './database-wait.js';

// EX_CONFIG from sysexits.h: orchestrators and humans can tell "fix your env" from a crash.
const EXIT_CONFIG = 78;
// EX_UNAVAILABLE: a dependency stayed down past its bound; the same image may boot on a retry.
const EXIT_UNAVAILABLE = 69;

/** Parses config or stops the process with a message naming each bad variable. */
export function loadConfigOrExit<S extends z.ZodType<BaseConfig>>(service: string, schema: S): Readonly<z.infer<S>> {
  try {
    return parseConfig(schema);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`[${service}] ${error.message}\n`);
      process.exit(EXIT_CONFIG);
    }
    throw error;
  }
}

export type ServiceBoot<C extends BaseConfig> = {
  service: ServiceName;
  envSchema: z.ZodType<C>;
  module: (config: Readonly<C>) => DynamicModule;
};

/**
 * Starts a NATS-only service: config, logging, error mapping, request ids, probes, clean shutdown.
 * The module must import PlatformModule.forRoot: Nest's server listens on its connection.
 */
export async function bootstrapService<C extends BaseConfig>(boot: ServiceBoot<C>): Promise<INestMicroservice> {
  const config = loadConfigOrExit(boot.service, boot.envSchema);
  startTracing(boot.service);
  startMetrics(boot.service);
  startAccessLog(config.ACCESS_LOG_SAMPLE);
  const logger = createLogger(boot.service, config.LOG_LEVEL);
  const probes = startProbes(boot.service, config);
  await waitForDatabaseOrExit(boot.service, config, logger);
  // The server is created before the module's providers; it asks for the connection at listen().
  const app: INestMicroservice = await NestFactory.createMicroservice(boot.module(config), {
    strategy: new NatsServer(() => app.get(Nats), boot.service),
    logger: new PinoNestLogger(logger),
  });
  app.useGlobalFilters(new RpcErrorFilter());
  app.useGlobalInterceptors(new RequestIdInterceptor(), new ObservabilityInterceptor());
  app.enableShutdownHooks();
  await app.listen();
  probes.serve(app);
  logger.info('%s service listening on NATS %s', boot.service, config.NATS_URL);
  return app;
}

export type Probes = {
  /** From now on /readyz answers the app's health checks. */
  serve(app: INestMicroservice | INestApplication): void;
};

/**
 * The probe server (HEALTH_PORT), started before anything the boot waits for: /livez answers at
 * once, so an orchestrator does not kill a service waiting for its database, and /readyz is 503
 * until `serve(app)`, so it gets no traffic before it can handle it.
 */
export function startProbes(service: ServiceName, config: BaseConfig): Probes {
  let indicators: HealthIndicator[] | undefined;
  if (config.HEALTH_PORT !== undefined) {
    const server = startProbeServer(
      config.HEALTH_PORT,
      async () => indicators !== undefined && (await runHealthChecks(service, indicators)).status === 'up',
    );
    process.once('beforeExit', () => server.close());
  }
  return {
    serve: (app) => {
      indicators = app.get<HealthIndicator[]>(HEALTH_INDICATORS, { strict: false });
    },
  };
}

/**
 * Waits for Postgres for up to DATABASE_CONNECT_TIMEOUT_SECONDS, or stops the process (exit 69)
 * with one message saying where it looked, how long, and the last reason. Each failed attempt is
 * a warning on `logger` (a service's), or a plain line on stderr without one (a migrate.js).
 */
export async function waitForDatabaseOrExit(
  service: string,
  config: BaseConfig,
  logger?: Logger,
  databaseUrl = config.DATABASE_URL,
): Promise<void> {
  const log = (message: string, { attempt, retryInMs }: ConnectFailure) =>
    logger ? logger.warn({ attempt, retryInMs }, message) : process.stderr.write(`[${service}] ${message}\n`);
  const target = databaseTarget(databaseUrl);
  const bound = config.DATABASE_CONNECT_TIMEOUT_SECONDS;
  try {
    await waitForDatabase({
      databaseUrl,
      timeoutSeconds: bound,
      // One line per failed attempt, with the reason and no stack: what an operator reads while it waits.
      onRetry: (failure) =>
        log(
          `Postgres at ${target} not reachable yet (${failure.reason}); attempt ${failure.attempt}, retrying in ${failure.retryInMs} ms, for up to ${bound} s in all`,
          failure,
        ),
    });
  } catch (error) {
    if (error instanceof DatabaseUnreachableError) {
      process.stderr.write(`[${service}] ${error.message}; giving up (DATABASE_CONNECT_TIMEOUT_SECONDS)\n`);
      process.exit(EXIT_UNAVAILABLE);
    }
    throw error;
  }
}

/** Entry point body of each service's `migrate.js`. */
export async function migrateAndExit(
  service: string,
  envSchema: z.ZodType<BaseConfig & { DB_SCHEMA: string }>,
  options: Omit<SchemaOptions, 'databaseUrl' | 'schema'>,
) {
  const config = loadConfigOrExit(service, envSchema);
  let migration: ReturnType<typeof migrationTarget>;
  try {
    migration = migrationTarget(config);
  } catch (error) {
    process.stderr.write(`[${service}] ${(error as Error).message}\n`);
    process.exit(EXIT_CONFIG);
  }
  // Migrations run first (npm start, the k8s Job, compose), so they are the first to meet a
  // Postgres that is not up yet: they wait for it as the services do (as the migration role: the
  // service's role may not exist yet).
  await waitForDatabaseOrExit(service, config, undefined, migration.databaseUrl);
  try {
    const applied = await runMigrations({ ...options, ...migration, schema: config.DB_SCHEMA });
    process.stdout.write(
      `[${service}] schema "${config.DB_SCHEMA}": ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'}\n`,
    );
    process.exit(0);
  } catch (error) {
    process.stderr.write(`[${service}] migration failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

/**
 * Who runs a service's migrations, and the password its role gets: with MIGRATION_DATABASE_URL, the
 * migration role, and DATABASE_URL must name the service's own role (its password becomes the
 * role's); without it, DATABASE_URL's user is the owner (tests, a bare local run).
 */
export function migrationTarget(
  config: Pick<BaseConfig, 'DATABASE_URL' | 'MIGRATION_DATABASE_URL'> & { DB_SCHEMA: string },
): {
  databaseUrl: string;
  servicePassword?: string;
} {
  if (!config.MIGRATION_DATABASE_URL) return { databaseUrl: config.DATABASE_URL };
  const service = new URL(config.DATABASE_URL);
  const role = serviceRole(config.DB_SCHEMA);
  if (decodeURIComponent(service.username) !== role)
    throw new Error(
      `DATABASE_URL must name the service's own role "${role}" when MIGRATION_DATABASE_URL is set (it names "${decodeURIComponent(service.username)}")`,
    );
  const password = decodeURIComponent(service.password);
  if (!password) throw new Error(`DATABASE_URL names no password for "${role}": the role's own password is required`);
  return { databaseUrl: config.MIGRATION_DATABASE_URL, servicePassword: password };
}
