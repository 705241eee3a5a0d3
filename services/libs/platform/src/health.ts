import { Controller, Inject, Module, type DynamicModule, type Provider } from '@nestjs/common';
import {
  contracts,
  type HealthCheck,
  type HealthReply,
  type MetricsSummaryReply,
  type ParsedRequestOf,
  type ServiceName,
} from '@vigil/proto';
import { createServer, type Server } from 'node:http';
import { Handles } from './contracts.js';
import { metricsText, requestSummary } from './metrics.js';
import { VIGIL_VERSION } from './version.js';

export type HealthIndicator = { name: string; check: () => Promise<HealthCheck> };

export const HEALTH_INDICATORS = Symbol('HEALTH_INDICATORS');

const startedAt = Date.now();

/** Runs every indicator with a deadline: a hung dependency reads as down, not as a hung probe. */
export async function runHealthChecks(
  service: ServiceName,
  indicators: HealthIndicator[],
  timeoutMs = 2_000,
): Promise<HealthReply> {
  const checks: Record<string, HealthCheck> = {};
  await Promise.all(
    indicators.map(async (indicator) => {
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        checks[indicator.name] = await Promise.race([
          indicator.check(),
          new Promise<HealthCheck>((resolve) => {
            timer = setTimeout(() => resolve({ status: 'down', detail: 'timed out' }), timeoutMs);
          }),
        ]);
      } catch (error) {
        checks[indicator.name] = { status: 'down', detail: error instanceof Error ? error.message : 'failed' };
      } finally {
        clearTimeout(timer);
      }
      checks[indicator.name]!.latencyMs ??= Math.round((performance.now() - started) * 10) / 10;
    }),
  );
  const up = Object.values(checks).every((c) => c.status === 'up');
  return {
    service,
    status: up ? 'up' : 'down',
    version: VIGIL_VERSION,
    uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
    checks,
  };
}

/**
 * Answers `health.v1.<service>` and `metrics.v1.summary.<service>` over NATS: whether the service
 * is up, and its own reading of its request metrics for the admin overview. The controller class
 * is made per service because Nest reads the subject from a decorator at definition time.
 */
export function healthModule(service: ServiceName, indicators: Provider[] = []): DynamicModule {
  @Controller()
  class HealthController {
    constructor(@Inject(HEALTH_INDICATORS) private readonly indicators: HealthIndicator[]) {}

    @Handles(contracts.health(service))
    check(): Promise<HealthReply> {
      return runHealthChecks(service, this.indicators);
    }

    @Handles(contracts.metricsSummary(service), 'metrics summary request')
    metrics(request: ParsedRequestOf<ReturnType<typeof contracts.metricsSummary>>): MetricsSummaryReply {
      return { service, ...requestSummary(request.windowSeconds) };
    }
  }

  @Module({})
  class HealthModule {}

  const tokens = indicators.map((p) => (typeof p === 'function' ? p : p.provide));
  return {
    module: HealthModule,
    controllers: [HealthController],
    providers: [
      ...indicators,
      {
        provide: HEALTH_INDICATORS,
        useFactory: (...found: HealthIndicator[]) => found,
        inject: tokens,
      },
    ],
    exports: [HEALTH_INDICATORS],
  };
}

/**
 * Internal probe endpoints for orchestrators (/livez, /readyz) and Prometheus (/metrics). Not an
 * edge: it is bound only where HEALTH_PORT is set and carries no client data.
 */
export function startProbeServer(port: number, ready: () => Promise<boolean>): Server {
  const server = createServer((req, res) => {
    if (req.url === '/livez') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"up"}');
      return;
    }
    if (req.url === '/readyz') {
      ready().then(
        (ok) => res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify({ status: ok ? 'up' : 'down' })),
        () => res.writeHead(503, { 'content-type': 'application/json' }).end('{"status":"down"}'),
      );
      return;
    }
    if (req.url === '/metrics') {
      metricsText().then(
        ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
        () => res.writeHead(500).end(),
      );
      return;
    }
    res.writeHead(404).end();
  });
  server.listen(port);
  return server;
}
