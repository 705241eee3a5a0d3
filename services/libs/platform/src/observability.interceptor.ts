import {
  Injectable,
  Logger,
  RequestMethod,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { NatsContext } from '@nestjs/microservices';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Context } from '@opentelemetry/api';
import { Observable } from 'rxjs';
import { currentRequestId, runWithRequestId } from './context.js';
import { observeHttpRequest, observeNatsHandled } from './metrics.js';
import {
  contextFromHeaders,
  contextFromHttpHeaders,
  endSpan,
  startSpan,
  withContext,
  type HeaderCarrier,
} from './tracing.js';

// Nest's metadata keys for @Controller/@Get paths and the request method (@nestjs/common/constants).
const PATH_METADATA = 'path';
const METHOD_METADATA = 'method';

/** `/a/` + `:b` → `/a/:b`: Nest stores controller and handler paths apart (either may be a list). */
function joinPath(prefix: unknown, path: unknown): string {
  const first = (value: unknown) =>
    Array.isArray(value) ? String(value[0] ?? '') : typeof value === 'string' ? value : '';
  const parts = [first(prefix), first(path)].flatMap((p) => p.split('/')).filter(Boolean);
  return `/${parts.join('/')}`;
}

/** Subjects the platform answers on a timer (probes, the overview's summary): not worth a log line each. */
const quiet = (subject: string) => subject.startsWith('health.') || subject.startsWith('metrics.');

const requestLogger = new Logger('request');

let accessLogSample = 1;

/**
 * The access log: every failed request (an RPC error, an HTTP status ≥ 400 or a cut-short response)
 * has its line; of the rest, this fraction (ACCESS_LOG_SAMPLE, parsed with the service's config).
 * One line per screen in the gateway and another in screening cost about as much CPU as the
 * screen's metrics and span together (bench/RESULTS.md); the request counter and latency
 * histogram still count every request.
 */
export function startAccessLog(sample: number): void {
  accessLogSample = sample;
}

/** Whether this request's line is written: always when it failed, else with the configured probability. */
export function accessLogged(failed: boolean): boolean {
  return failed || accessLogSample >= 1 || (accessLogSample > 0 && Math.random() < accessLogSample);
}

/**
 * Starts observing one NATS request: a server span that continues the caller's trace, and, when
 * `finish` is called with the outcome, the handled counter and latency and its access-log line. Used by
 * the interceptor below and by the Responder, which answers its subjects without Nest's pipeline.
 */
export function observeRpc(
  subject: string,
  headers: HeaderCarrier | undefined,
): { ctx: Context; finish(error: unknown): void } {
  const { span, ctx } = startSpan(subject, {
    kind: 'server',
    parent: contextFromHeaders(headers),
    attributes: { 'messaging.destination.name': subject },
  });
  const started = performance.now();
  return {
    ctx,
    finish(error: unknown) {
      const ms = performance.now() - started;
      observeNatsHandled(subject, ms / 1000, error);
      if (!quiet(subject) && accessLogged(error !== undefined)) {
        const code = (error as { code?: string } | undefined)?.code;
        requestLogger.log(
          `${subject} ${error === undefined ? 'ok' : `failed${code ? ` (${code})` : ''}`} in ${ms.toFixed(1)} ms`,
        );
      }
      endSpan(span, error);
    },
  };
}

/**
 * Times and traces every request a service handles, over HTTP and NATS alike, from Nest's own
 * description of the route (controller and handler paths, or the NATS subject), so it works the
 * same on the Express and the Fastify adapter:
 * - a server span that continues the caller's W3C trace (`traceparent` in HTTP or NATS headers);
 * - the request counter and latency histogram by route template or subject (`/metrics`);
 * - its access-log line, carrying the trace id (every failure, a sample of the rest: startAccessLog).
 * An HTTP request is recorded when its response closes, with the status actually sent
 * (after exception filters), and a response cut short reads as 499.
 */
@Injectable()
export class ObservabilityInterceptor implements NestInterceptor {
  private readonly logger = requestLogger;
  /** Route templates by handler: Nest's metadata never changes after boot, joinPath need not run per request. */
  private readonly routes = new WeakMap<object, { route: string; declared: string }>();

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'rpc') return this.rpc(context, next);
    if (context.getType() === 'http') return this.http(context, next);
    return next.handle();
  }

  private rpc(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const nats = context.switchToRpc().getContext<NatsContext>();
    const { ctx, finish } = observeRpc(
      nats?.getSubject?.() ?? 'unknown',
      nats?.getHeaders?.() as HeaderCarrier | undefined,
    );
    return new Observable((subscriber) =>
      withContext(ctx, () =>
        next.handle().subscribe({
          next: (value) => subscriber.next(value),
          error: (error: unknown) => {
            finish(error);
            subscriber.error(error);
          },
          complete: () => {
            finish(undefined);
            subscriber.complete();
          },
        }),
      ),
    );
  }

  private routeOf(context: ExecutionContext): { route: string; declared: string } {
    const handler = context.getHandler();
    let known = this.routes.get(handler);
    if (!known) {
      const declared = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      known = {
        route: joinPath(
          Reflect.getMetadata(PATH_METADATA, context.getClass()),
          Reflect.getMetadata(PATH_METADATA, handler),
        ),
        declared: declared === undefined ? 'GET' : RequestMethod[declared],
      };
      this.routes.set(handler, known);
    }
    return known;
  }

  private http(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const ctx = this.observeHttp(context);
    return new Observable((subscriber) => withContext(ctx, () => next.handle().subscribe(subscriber)));
  }

  /**
   * Starts observing one HTTP request (span, metrics and log line when its response closes) and
   * answers the trace context its handler runs in. Public for an edge that runs a route's handler
   * itself rather than through Nest's interceptor chain (the gateway's direct route).
   */
  observeHttp(context: ExecutionContext): Context {
    const http = context.switchToHttp();
    const req = http.getRequest<{
      method?: string;
      headers: IncomingHttpHeaders;
      raw?: { headers: IncomingHttpHeaders };
    }>();
    const reply = http.getResponse<ServerResponse | { raw: ServerResponse }>();
    const raw = 'raw' in reply ? reply.raw : reply;
    const { route, declared } = this.routeOf(context);
    const method = req.method ? req.method.toUpperCase() : declared;
    const { span, ctx } = startSpan(`${method} ${route}`, {
      kind: 'server',
      parent: contextFromHttpHeaders(req.raw?.headers ?? req.headers),
      attributes: { 'http.request.method': method, 'http.route': route },
    });
    const requestId = currentRequestId();
    const started = performance.now();
    raw.once('close', () => {
      const seconds = (performance.now() - started) / 1000;
      const status = raw.writableFinished ? raw.statusCode : 499;
      observeHttpRequest(method, route, status, seconds);
      span.setAttribute('http.response.status_code', status);
      endSpan(span, status >= 500 ? new Error(`HTTP ${status}`) : undefined);
      if (!accessLogged(status >= 400)) return;
      withContext(ctx, () =>
        runWithRequestId(requestId, () =>
          this.logger.log(`${method} ${route} ${status} in ${(seconds * 1000).toFixed(1)} ms`),
        ),
      );
    });
    return ctx;
  }
}
