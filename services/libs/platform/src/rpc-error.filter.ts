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
    if (exception instanceof DomainError) {
      return throwError(() => exception.toRpcError());
    }
    const subject = host.getType() === 'rpc' ? String(host.switchToRpc().getContext()?.getSubject?.() ?? '') : '';
    this.logger.error(
      `Unhandled error in handler ${subject}: ${exception instanceof Error ? exception.message : String(exception)}`,
      exception instanceof Error ? exception.stack : undefined,
    );
    const payload: RpcError = { code: 'INTERNAL', message: 'Internal error.' };
    return throwError(() => payload);
  }
}
