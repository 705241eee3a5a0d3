import { Catch, Logger, type ArgumentsHost, type RpcExceptionFilter } from '@nestjs/common';
import type { RpcError } from '@vigil/proto';
import { Observable, throwError } from 'rxjs';
import { DomainError } from './errors.js';

/**
 * The only way a failure leaves a service over NATS: domain errors keep their
 * code; anything else is logged here with its stack and leaves as INTERNAL, so
 * no stack trace or SQL ever reaches a client.
 */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger('RpcErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): Observable<never> {
    const subject = host.getType() === 'rpc' ? String(host.switchToRpc().getContext()?.getSubject?.() ?? '') : '';
    const payload = toRpcError(exception, subject, this.logger);
    return throwError(() => payload);
  }
}

/**
 * What a failure in a handler of `subject` leaves as: a DomainError its own RpcError; anything else
 * logged with its stack and answered as INTERNAL. Shared by the filter and the Responder.
 */
export function toRpcError(exception: unknown, subject: string, logger: Logger): RpcError {
  if (exception instanceof DomainError) return exception.toRpcError();
  logger.error(
    `Unhandled error in handler ${subject}: ${exception instanceof Error ? exception.message : String(exception)}`,
    exception instanceof Error ? exception.stack : undefined,
  );
  return { code: 'INTERNAL', message: 'Internal error.' };
}
