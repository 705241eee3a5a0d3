import {
  ForbiddenException,
  RequestMethod,
  type CanActivate,
  type ExceptionFilter,
  type INestApplication,
  type Type,
} from '@nestjs/common';
import {
  CUSTOM_ROUTE_ARGS_METADATA,
  EXCEPTION_FILTERS_METADATA,
  GUARDS_METADATA,
  HEADERS_METADATA,
  HTTP_CODE_METADATA,
  INTERCEPTORS_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  PIPES_METADATA,
  REDIRECT_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants.js';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import type { ObservabilityInterceptor } from '@vigil/platform';
import { withContext } from '@vigil/platform';
import type { Application, Request, RequestHandler, Response } from 'express';
import { AsyncResource } from 'node:async_hooks';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { GatewayExpressAdapter } from './bytes-reply.js';

type ParamFactory = (data: unknown, ctx: ExecutionContextHost) => unknown;
type Param = { index: number; factory: ParamFactory; data: unknown };

export type DirectRouteOptions = {
  controller: Type;
  method: string;
  /** The app's global guards, interceptor and filter, as create-app installed them. */
  guards: readonly CanActivate[];
  observability: ObservabilityInterceptor;
  filter: ExceptionFilter;
  /**
   * The route's own interceptors, each with the requests for which it does nothing (it returns
   * `next.handle()` untouched): only those requests are served directly, the rest go through Nest.
   */
  inert: ReadonlyArray<{ interceptor: Type; when: (req: IncomingMessage) => boolean }>;
};

const noop = () => undefined;

/**
 * One Nest route served straight from the HTTP server's request listener, for the route that is
 * most of the traffic (POST /api/v1/screen): Express's router, Nest's router execution context
 * and the rxjs chain of its interceptors cost the gateway about as much CPU per screen as the
 * work itself. It runs the same pieces in the same order, taken from the app rather than
 * restated: the middleware `app.use` installed before the routes (request id, security headers,
 * the JSON body parser, the safe-input rule, CORS), the global guard, the observability the
 * global interceptor records, the handler's parameters through their own decorators, the
 * handler, and the adapter's reply; a failure anywhere goes to the global exception filter as
 * Nest would hand it over. Every other request, and any this route's interceptors would act on
 * (an Idempotency-Key), goes to the Nest app untouched.
 *
 * What Nest metadata the route carries is checked at boot: a guard, pipe, filter, header,
 * redirect or non-custom parameter added to it later (which this would not run) stops the boot.
 */
export class DirectRoute {
  private readonly path: string;
  private readonly instance: object;
  private readonly handler: (...args: unknown[]) => unknown;
  private readonly params: Param[];
  private readonly status: number;
  private readonly middleware: RequestHandler[];
  /** Express's request and response prototypes (app.request, app.response), with their `app`. */
  private readonly express: { request: object; response: object };

  constructor(
    app: INestApplication,
    private readonly adapter: GatewayExpressAdapter,
    private readonly options: DirectRouteOptions,
  ) {
    const { controller, method } = options;
    const handler = (controller.prototype as Record<string, unknown>)[method];
    if (typeof handler !== 'function') throw new Error(`DirectRoute: ${controller.name}.${method} is not a handler`);
    this.handler = handler as (...args: unknown[]) => unknown;
    if (Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.POST)
      throw new Error(`DirectRoute: ${controller.name}.${method} is not a POST route`);
    this.path = joinPath(Reflect.getMetadata(PATH_METADATA, controller), Reflect.getMetadata(PATH_METADATA, handler));
    this.status = (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ?? 201;
    for (const key of [GUARDS_METADATA, PIPES_METADATA, EXCEPTION_FILTERS_METADATA])
      if (has(key, controller) || has(key, handler))
        throw new Error(`DirectRoute: ${controller.name}.${method} has its own ${key}, which it would not run`);
    for (const key of [HEADERS_METADATA, REDIRECT_METADATA])
      if (has(key, handler))
        throw new Error(`DirectRoute: ${controller.name}.${method} has ${key}, which it would not apply`);
    const interceptors = [
      ...((Reflect.getMetadata(INTERCEPTORS_METADATA, controller) as unknown[] | undefined) ?? []),
      ...((Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? []),
    ];
    for (const interceptor of interceptors)
      if (!options.inert.some((i) => i.interceptor === interceptor))
        throw new Error(`DirectRoute: ${controller.name}.${method} has an interceptor not declared inert`);
    this.params = paramsOf(controller, method);
    this.instance = app.get(controller);
    // Only what precedes the routes in Express's stack: the middleware installed so far.
    this.middleware = adapter.used
      .filter((m) => !m.paths || m.paths.some((p) => under(this.path, p)))
      .map((m) => m.handler);
    this.express = adapter.getInstance<Application & { request: object; response: object }>();
  }

  /** Puts the route in front of the app's request listener on `server`. */
  install(server: Server) {
    const listeners = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
    if (listeners.length !== 1) throw new Error('DirectRoute: the server must have exactly one request listener');
    const app = listeners[0]!;
    server.removeListener('request', app);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (this.serves(req)) this.serve(req, res);
      else app(req, res);
    });
  }

  private serves(req: IncomingMessage): boolean {
    if (req.method !== 'POST') return false;
    const url = req.url ?? '';
    if (!url.startsWith(this.path) || (url.length > this.path.length && url[this.path.length] !== '?')) return false;
    for (const { when } of this.options.inert) if (!when(req)) return false;
    return true;
  }

  private serve(incoming: IncomingMessage, outgoing: ServerResponse) {
    // What Express's app.handle and router do before any middleware sees the request.
    const req = incoming as Request;
    const res = outgoing as Response;
    req.res = res;
    res.req = req;
    Object.setPrototypeOf(req, this.express.request);
    Object.setPrototypeOf(res, this.express.response);
    res.locals ??= Object.create(null) as Record<string, unknown>;
    req.originalUrl = req.url;
    req.baseUrl = '';
    req.params = {};
    this.step(req, res, 0);
  }

  /** Middleware `index`, then the next; as in Express, an error (passed or thrown) skips to the filter. */
  private step(req: Request, res: Response, index: number) {
    const middleware = this.middleware[index];
    if (!middleware) {
      void this.route(req, res);
      return;
    }
    const proceed = (error?: unknown) => {
      if (error) this.fail(error, req, res);
      else this.step(req, res, index + 1);
    };
    // A middleware that goes on at once does so in the context it set up (the request id's); one
    // that goes on later (the body parser, once the body is in) is called back from a stream
    // event, so it goes on in the context the middleware was called in, as it would have at once.
    // That context is the current one again once the middleware returns: captured only then, and
    // only for a middleware that has not gone on yet (one resource per request, not one per step).
    let called = false;
    let later: AsyncResource | undefined;
    const next = (error?: unknown) => {
      called = true;
      if (later) later.runInAsyncScope(proceed, null, error);
      else proceed(error);
    };
    try {
      void middleware(req, res, next);
    } catch (error) {
      this.fail(error, req, res);
      return;
    }
    if (!called) later = new AsyncResource('DirectRoute');
  }

  /** Guards, then the handler under the request's observation, then the reply: Nest's order. */
  private async route(req: Request, res: Response) {
    const host = new ExecutionContextHost([req, res, noop], this.options.controller, this.handler);
    try {
      for (const guard of this.options.guards)
        if (!(await guard.canActivate(host))) throw new ForbiddenException('Forbidden resource');
      res.status(this.status);
      const ctx = this.options.observability.observeHttp(host);
      const result = await withContext(ctx, () => {
        const args: unknown[] = [];
        for (const { index, factory, data } of this.params) args[index] = factory(data, host);
        return this.handler.apply(this.instance, args);
      });
      this.adapter.reply(res, result, this.status);
    } catch (error) {
      this.fail(error, req, res);
    }
  }

  private fail(error: unknown, req: Request, res: Response) {
    this.options.filter.catch(error, new ExecutionContextHost([req, res, noop]));
  }
}

const has = (key: string, target: object) => {
  const value: unknown = Reflect.getMetadata(key, target);
  return Array.isArray(value) ? value.length > 0 : value !== undefined;
};

/** Express's prefix match of `app.use(path)`. */
const under = (path: string, prefix: string) =>
  path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);

function joinPath(prefix: unknown, path: unknown): string {
  const parts = [prefix, path].flatMap((p) => (typeof p === 'string' ? p.split('/') : [])).filter(Boolean);
  return `/${parts.join('/')}`;
}

/** The handler's parameters, each made by its own decorator's factory; any other kind stops the boot. */
function paramsOf(controller: Type, method: string): Param[] {
  const metadata = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<
    string,
    { index: number; factory?: ParamFactory; data: unknown; pipes?: unknown[] }
  >;
  return Object.entries(metadata).map(([key, param]) => {
    if (!key.includes(CUSTOM_ROUTE_ARGS_METADATA) || !param.factory || (param.pipes?.length ?? 0) > 0)
      throw new Error(`DirectRoute: ${controller.name}.${method} takes a parameter that is not a custom decorator`);
    return { index: param.index, factory: param.factory, data: param.data };
  });
}
