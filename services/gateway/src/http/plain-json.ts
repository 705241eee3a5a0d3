import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AsyncResource } from 'node:async_hooks';
import { Readable } from 'node:stream';

const JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/**
 * body-parser's JSON parser (`parser`, made with `limit`), with the usual request read without it:
 * an unencoded `application/json` body of announced length within the limit, a UTF-8 object or
 * array that JSON.parse accepts. body-parser spends more on such a body than on parsing it (type-is
 * and content-type parsed per request, raw-body's stream listeners and size checks, an iconv
 * decoder, on-finished); on the screen route that was a visible share of the gateway's CPU.
 *
 * Everything else goes to `parser` as it came: another type, charset or encoding, a chunked or
 * oversized body, one already read. A plain body that does not parse as a plain one (not JSON, a
 * BOM, a string at the top, cut short) is handed to `parser` as the bytes that arrived, so its
 * answer (the body, or its error with its status and type) is body-parser's own.
 */
export function plainJson(parser: RequestHandler, limit: number): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const length = plainLength(req, limit);
    if (length === undefined) {
      void parser(req, res, next);
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    const ended = (complete: boolean) => {
      req.off('data', data);
      req.off('end', end);
      req.off('error', failed);
      req.off('close', closed);
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received);
      const parsed = complete && received === length ? parsedJson(body) : undefined;
      if (parsed !== undefined) {
        req.body = parsed.value;
        next();
      } else {
        const replay = replayOf(req, body);
        void parser(replay, res, (error?: unknown) => {
          if ('body' in replay) req.body = replay.body;
          next(error);
        });
      }
    };
    const data = (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
    };
    // The stream's events come in the connection's context: the rest of the chain goes on in the
    // request's (its request id, its trace), as it does after raw-body, which binds its callback so.
    const scope = new AsyncResource('plainJson');
    const end = () => scope.runInAsyncScope(ended, null, true);
    const failed = () => scope.runInAsyncScope(ended, null, false);
    const closed = failed;
    req.on('data', data);
    req.on('end', end);
    req.on('error', failed);
    req.on('close', closed);
  };
}

/** The announced length of a body read here, or undefined for one left to body-parser. */
function plainLength(req: Request, limit: number): number | undefined {
  const { headers } = req;
  if (req.complete || req.readableEnded || 'body' in req) return undefined;
  if (headers['transfer-encoding'] !== undefined || headers['content-encoding'] !== undefined) return undefined;
  const type = headers['content-type'];
  if (type === undefined || !JSON_TYPES.has(type.toLowerCase())) return undefined;
  const announced = headers['content-length'];
  if (announced === undefined || !/^\d{1,9}$/.test(announced)) return undefined;
  const length = Number(announced);
  return length > 0 && length <= limit ? length : undefined;
}

/** The body as body-parser's strict parser would have it, or undefined where it might differ. */
function parsedJson(body: Buffer): { value: unknown } | undefined {
  if (body[0] !== OPEN_BRACE && body[0] !== OPEN_BRACKET) return undefined;
  try {
    return { value: JSON.parse(body.toString('utf8')) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * What body-parser reads of a request, its body replayed from `body`: the headers, and the
 * state on-finished judges a request by (received whole, still unread; read once the replay ends).
 */
function replayOf(req: Request, body: Buffer): Request {
  const replay = Readable.from(body.length > 0 ? [body] : [], { objectMode: false });
  return Object.assign(replay, {
    headers: req.headers,
    method: req.method,
    url: req.url,
    complete: true,
    upgrade: false,
    socket: { readable: true },
  }) as unknown as Request;
}
