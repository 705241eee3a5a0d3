import 'reflect-metadata';
import type { DynamicModule, INestApplication, INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { ServiceName } from '@vigil/proto';
import type { z } from 'zod';
import { ConfigError, parseConfig, type BaseConfig } from './config.js';
import { startProbeServer, runHealthChecks, HEALTH_INDICATORS, type HealthIndicator } from './health.js';
import { createLogger, PinoNestLogger } from './logger.js';
import { Nats, NatsServer, RequestIdInterceptor } from './nats.js';
import { startMetrics } from './metrics.js';
import { ObservabilityInterceptor } from './observability.interceptor.js';
import { startTracing } from './tracing.js';
import { RpcErrorFilter } from './rpc-error.filter.js';
import { runMigrations, type SchemaOptions } from './database.js';

// EX_CONFIG from sysexits.h: orchestrators and humans can tell "fix your env" from a crash.
const EXIT_CONFIG = 78;

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
  const logger = createLogger(boot.service, config.LOG_LEVEL);
  // The server is created before the module's providers; it asks for the connection at listen().
  const app: INestMicroservice = await NestFactory.createMicroservice(boot.module(config), {
    strategy: new NatsServer(() => app.get(Nats), boot.service),
    logger: new PinoNestLogger(logger),
  });
  app.useGlobalFilters(new RpcErrorFilter());
  app.useGlobalInterceptors(new RequestIdInterceptor(), new ObservabilityInterceptor());
  app.enableShutdownHooks();
  await app.listen();
  startProbes(app, boot.service, config);
  logger.info('%s service listening on NATS %s', boot.service, config.NATS_URL);
  return app;
}

export function startProbes(app: INestMicroservice | INestApplication, service: ServiceName, config: BaseConfig) {
  if (config.HEALTH_PORT === undefined) return;
  const indicators = app.get<HealthIndicator[]>(HEALTH_INDICATORS, { strict: false });
  const server = startProbeServer(config.HEALTH_PORT, async () => (await runHealthChecks(service, indicators)).status === 'up');
  process.once('beforeExit', () => server.close());
}

/** Entry point body of each service's `migrate.js`. */
export async function migrateAndExit(service: string, envSchema: z.ZodType<BaseConfig & { DB_SCHEMA: string }>, options: Omit<SchemaOptions, 'databaseUrl' | 'schema'>) {
  const config = loadConfigOrExit(service, envSchema);
  try {
    const applied = await runMigrations({ ...options, databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA });
    process.stdout.write(`[${service}] schema "${config.DB_SCHEMA}": ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'}\n`);
    process.exit(0);
  } catch (error) {
    process.stderr.write(`[${service}] migration failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
