import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { DomainError, currentRequestId } from '@vigil/platform';
import { ERROR_HTTP_STATUS, ERROR_TITLES, type ErrorCode, type FieldError, type ProblemDetails } from '@vigil/proto';
import type { Request, Response } from 'express';

type Mapped = { code: ErrorCode; detail: string; errors?: FieldError[]; retryAfterSeconds?: number };

// Body-parser and router failures arrive as framework errors; give each a stable code.
function fromHttpException(exception: HttpException): Mapped {
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
  const detail = code === 'ROUTE_NOT_FOUND' ? 'No route matches this method and path.' : exception.message;
  return { code, detail };
}

function fromBodyParser(exception: unknown): Mapped | undefined {
  const type = (exception as { type?: unknown })?.type;
  if (type === 'entity.too.large')
    return {
      code: 'PAYLOAD_TOO_LARGE',
      detail: 'The request body is larger than this endpoint accepts (1 MiB; 16 MiB for bulk batches).',
    };
  if (type === 'entity.parse.failed') return { code: 'BAD_REQUEST', detail: 'The request body is not valid JSON.' };
  if (type === 'encoding.unsupported' || type === 'charset.unsupported')
    return { code: 'UNSUPPORTED_MEDIA_TYPE', detail: 'The request body encoding is not supported.' };
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
