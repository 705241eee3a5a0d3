import { ExpressAdapter } from '@nestjs/platform-express';
import type { RequestHandler, Response } from 'express';

/**
 * An answer that is already its bytes (screening's JSON, an idempotent replay). Returned by a
 * handler, it is written with one `res.end` by GatewayExpressAdapter: as a web `Response` it would
 * go through Nest's streaming path (a ReadableStream, its reader, a transform) for a body that is
 * whole from the start, which cost the screen route more than its own work did.
 */
export class BytesReply {
  constructor(
    readonly body: Uint8Array,
    readonly status = 200,
    readonly contentType = 'application/json; charset=utf-8',
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

/** A middleware as `app.use` took it: for every path, or for those under `paths`. */
export type UsedMiddleware = { paths: readonly string[] | undefined; handler: RequestHandler };

/**
 * Express, plus BytesReply written as it is (every other answer goes the usual way), and a record
 * of the middleware `app.use` installed, in order: a route served directly (direct-route.ts) runs
 * the same chain the router would have run before it.
 */
export class GatewayExpressAdapter extends ExpressAdapter {
  readonly used: UsedMiddleware[] = [];

  override use(...args: unknown[]) {
    const [first, ...rest] = args;
    if (typeof first === 'function') this.record(undefined, args);
    else if (typeof first === 'string' || Array.isArray(first)) this.record([first].flat() as string[], rest);
    return super.use(...args);
  }

  private record(paths: readonly string[] | undefined, handlers: unknown[]) {
    for (const handler of handlers.flat())
      if (typeof handler === 'function') this.used.push({ paths, handler: handler as RequestHandler });
  }

  override reply(response: Response, body: unknown, statusCode?: number) {
    if (!(body instanceof BytesReply)) return super.reply(response, body, statusCode);
    response.statusCode = body.status;
    response.setHeader('content-type', body.contentType);
    for (const name in body.headers) response.setHeader(name, body.headers[name]!);
    return response.end(body.body);
  }
}
