import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import {
  createLogger,
  Nats,
  NatsServer,
  ObservabilityInterceptor,
  PinoNestLogger,
  productionRules,
  startAccessLog,
  startMetrics,
  startTracing,
} from '@vigil/platform';
import compression from 'compression';
import express from 'express';
import helmet from 'helmet';
import { AppModule } from '../app.module.js';
import type { GatewayConfig } from '../env.js';
import { serveOpenApi } from '../openapi/openapi.js';
import type { Server } from 'node:http';
import { CredentialsGuard } from '../credentials/credentials.guard.js';
import { IDEMPOTENCY_HEADER, IdempotencyInterceptor } from '../idempotency/idempotency.interceptor.js';
import { ScreeningApiController } from '../screening-api/screening-api.controller.js';
import { GatewayExpressAdapter } from './bytes-reply.js';
import { DirectRoute } from './direct-route.js';
import { plainJson } from './plain-json.js';
import { ProblemDetailsFilter } from './problem-details.filter.js';
import { requestIdMiddleware } from './request-id.middleware.js';
import { safeInputMiddleware } from './safe-input.middleware.js';
import { staticHeaders } from './static-headers.js';

/**
 * Builds the HTTP app; shared by main.ts and the integration tests so both run the same stack.
 * `screenDirectly: false` leaves POST /api/v1/screen to Nest's router alone (the tests that
 * compare both ways of serving it).
 */
export async function createGatewayApp(
  config: Readonly<GatewayConfig>,
  options: { screenDirectly?: boolean } = {},
): Promise<INestApplication> {
  startTracing('gateway');
  startMetrics('gateway');
  startAccessLog(config.ACCESS_LOG_SAMPLE);
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const adapter = new GatewayExpressAdapter();
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), adapter, {
    bodyParser: false,
    logger: new PinoNestLogger(logger),
  });
  app.disable('x-powered-by');
  // Express hashes every response body for an ETag; API answers (screens above all) are never
  // revalidated, so that is a SHA-1 of ~10 KB per request for nothing.
  app.set('etag', false);
  // Only configured proxies may say who the client is (X-Forwarded-For); by default nobody may.
  app.set('trust proxy', config.TRUSTED_PROXIES.length > 0 ? config.TRUSTED_PROXIES : false);
  app.use(requestIdMiddleware);
  // helmet's defaults (a same-origin CSP, nosniff, no framing…), framed by nobody at all, and
  // HSTS only in production: on a plain-http development gateway it would mean nothing.
  const production = productionRules(config.NODE_ENV);
  app.use(
    staticHeaders(
      helmet({
        contentSecurityPolicy: {
          directives: { frameAncestors: ["'none'"], upgradeInsecureRequests: production ? [] : null },
        },
        frameguard: { action: 'deny' },
        strictTransportSecurity: production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      }),
    ),
  );
  // Answers above 1 KiB travel gzipped to a caller that accepts it (a catalogue, a page of logs,
  // a bulk result); a live stream is never held back to fill a compression block.
  app.use(
    compression({
      threshold: 1024,
      filter: (req, res) =>
        !String(res.getHeader('content-type') ?? '').startsWith('text/event-stream') && compression.filter(req, res),
    }),
  );
  // Bank payloads are small; anything larger than 1 MiB is a mistake or an attack — except a bulk
  // batch, whose 100,000 names need several MiB. The general parser skips a body already parsed.
  const json = ['application/json', 'application/*+json'];
  // Stripe signs the exact bytes it sent: the webhook must see the raw body, not re-serialised JSON.
  app.use('/api/payment/webhook', express.raw({ type: '*/*', limit: '1mb' }));
  app.use(['/api/v1/bulk-screen', '/api/sanctions/bulk-search'], express.json({ limit: '16mb', type: json }));
  app.use(plainJson(express.json({ limit: '1mb', type: json }), 1024 * 1024));
  app.use(safeInputMiddleware);
  if (config.CORS_ORIGINS.length > 0) {
    app.enableCors({
      origin: config.CORS_ORIGINS,
      exposedHeaders: ['x-request-id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'],
    });
  }
  const filter = new ProblemDetailsFilter();
  app.useGlobalFilters(filter);
  // Per-route request metrics, the server span of each request and its log line (Nest-level, so
  // the same on any HTTP adapter).
  const observability = new ObservabilityInterceptor();
  app.useGlobalInterceptors(observability);
  if (options.screenDirectly ?? true) {
    // The screen route is most of the traffic: served from the request listener, with the same
    // middleware, guard, observation, parameters, handler and filter (see direct-route.ts).
    new DirectRoute(app, adapter, {
      controller: ScreeningApiController,
      method: 'screen',
      guards: [app.get(CredentialsGuard)],
      observability,
      filter,
      inert: [{ interceptor: IdempotencyInterceptor, when: (req) => req.headers[IDEMPOTENCY_HEADER] === undefined }],
    }).install(app.getHttpServer() as Server);
  }
  serveOpenApi(app);
  app.enableShutdownHooks();

  // The gateway answers its own health subject so /health proves its broker link end to end.
  // Its only NATS handler is the health reply, which cannot fail, so no RPC filter is needed.
  app.connectMicroservice({ strategy: new NatsServer(() => app.get(Nats), 'gateway') }, { inheritAppConfig: false });
  await app.startAllMicroservices();
  return app;
}
