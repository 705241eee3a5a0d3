import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { DomainError, currentRequestId } from '@vigil/platform';
import { ERROR_HTTP_STATUS, ERROR_TITLES, type ErrorCode, type FieldError, type ProblemDetails } from '@vigil/proto';
import type { Request, Response } from 'express';
import { allowedMethods } from './allowed-methods.js';

type Mapped = { code: ErrorCode; detail: string; errors?: FieldError[]; retryAfterSeconds?: number };

/**
 * Our words for a failure the framework detected (router, body parser, multer): its own message
 * (`Unexpected end of JSON input`, `Failed to decode param '%E0%A4%A'`, `Unexpected field - x`)
 * names its internals and is never echoed.
 */
const FRAMEWORK_DETAILS: Partial<Record<ErrorCode, string>> = {
  BAD_REQUEST:
    'The request could not be read. Send JSON (or multipart/form-data for file uploads) with UTF-8 text and a well-formed URL.',
  UNAUTHENTICATED: 'Sign in first.',
  FORBIDDEN: 'This request is not allowed.',
  ROUTE_NOT_FOUND: 'No route matches this method and path.',
  METHOD_NOT_ALLOWED: 'This route does not accept this method.',
  PAYLOAD_TOO_LARGE:
    'The request body is larger than this endpoint accepts (1 MiB; 16 MiB for bulk batches; a CSV file of at most 10 MB).',
  UNSUPPORTED_MEDIA_TYPE: 'The request body’s media type, charset or encoding is not supported here.',
  RATE_LIMITED: 'Too many requests; retry later.',
  INTERNAL: 'An internal error occurred.',
};

// Router, body-parser and multer failures arrive as framework errors; give each a stable code and our words.
function fromHttpException(exception: HttpException): Mapped {
  const cause = (exception as { cause?: unknown }).cause;
  const known = fromBodyParser(cause);
  if (known) return known;
  if (cause instanceof URIError)
    return { code: 'BAD_REQUEST', detail: 'The URL holds a percent-encoded part that is not UTF-8.' };
  const status = exception.getStatus();
  const byStatus: Partial<Record<number, ErrorCode>> = {
    400: 'BAD_REQUEST',
    401: 'UNAUTHENTICATED',
    403: 'FORBIDDEN',
    404: 'ROUTE_NOT_FOUND',
    405: 'METHOD_NOT_ALLOWED',
    413: 'PAYLOAD_TOO_LARGE',
    415: 'UNSUPPORTED_MEDIA_TYPE',
    429: 'RATE_LIMITED',
  };
  const code = byStatus[status] ?? (status >= 500 ? 'INTERNAL' : 'BAD_REQUEST');
  return { code, detail: FRAMEWORK_DETAILS[code] ?? FRAMEWORK_DETAILS.BAD_REQUEST! };
}

function fromBodyParser(exception: unknown): Mapped | undefined {
  const type = (exception as { type?: unknown })?.type;
  if (type === 'entity.too.large') return { code: 'PAYLOAD_TOO_LARGE', detail: FRAMEWORK_DETAILS.PAYLOAD_TOO_LARGE! };
  if (type === 'entity.parse.failed') return { code: 'BAD_REQUEST', detail: 'The request body is not valid JSON.' };
  if (type === 'encoding.unsupported' || type === 'charset.unsupported')
    return { code: 'UNSUPPORTED_MEDIA_TYPE', detail: 'The request body encoding is not supported.' };
  if (type === 'request.aborted' || type === 'request.size.invalid')
    return { code: 'BAD_REQUEST', detail: 'The request body ended before its announced length.' };
  return undefined;
}

/**
 * The single mapper from failures to RFC 9457 responses. Unknown errors are
 * logged with their stack and answered as a bare INTERNAL problem.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemDetailsFilter');

  catch(exception: unknown, host: ArgumentsHost) {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request>();
    const res = ctx.getResponse<Response>();

    let mapped: Mapped;
    if (exception instanceof DomainError) {
      mapped = {
        code: exception.code,
        detail: exception.message,
        ...(exception.errors ? { errors: exception.errors } : {}),
        ...(exception.retryAfterSeconds !== undefined ? { retryAfterSeconds: exception.retryAfterSeconds } : {}),
      };
    } else if (exception instanceof HttpException) {
      mapped = fromHttpException(exception);
      // The router found no route for this method: if the path has routes for others, say which.
      const allow = mapped.code === 'ROUTE_NOT_FOUND' ? allowedMethods(req) : [];
      if (allow.length > 0) {
        res.setHeader('Allow', allow.join(', '));
        // Without CORS configured, OPTIONS is a question about the route, answered with Allow alone.
        if (req.method === 'OPTIONS') return void res.status(204).end();
        mapped = { code: 'METHOD_NOT_ALLOWED', detail: `This route takes ${allow.join(', ')}.` };
      }
    } else {
      mapped = fromBodyParser(exception) ?? { code: 'INTERNAL', detail: 'An internal error occurred.' };
      if (mapped.code === 'INTERNAL') {
        this.logger.error(
          `Unhandled error on ${req.method} ${req.path}: ${exception instanceof Error ? exception.message : String(exception)}`,
          exception instanceof Error ? exception.stack : undefined,
        );
      }
    }

    const status = ERROR_HTTP_STATUS[mapped.code];
    const requestId = currentRequestId();
    const body: ProblemDetails = {
      type: `https://vigil.dev/problems/${mapped.code.toLowerCase().replace(/_/g, '-')}`,
      title: ERROR_TITLES[mapped.code],
      status,
      detail: mapped.detail,
      code: mapped.code,
      ...(mapped.errors ? { errors: mapped.errors } : {}),
      instance: req.originalUrl.split('?')[0],
      ...(requestId ? { requestId } : {}),
    };
    if (mapped.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(mapped.retryAfterSeconds));
    else if (status === 503) res.setHeader('Retry-After', '5');
    res.status(status).type('application/problem+json').send(JSON.stringify(body));
  }
}
