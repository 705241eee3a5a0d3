import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';

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

/** Express, plus BytesReply written as it is; every other answer goes the usual way. */
export class GatewayExpressAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number) {
    if (!(body instanceof BytesReply)) return super.reply(response, body, statusCode);
    response.statusCode = body.status;
    response.setHeader('content-type', body.contentType);
    for (const name in body.headers) response.setHeader(name, body.headers[name]!);
    return response.end(body.body);
  }
}
