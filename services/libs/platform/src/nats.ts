import { Inject, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor, type OnApplicationShutdown } from '@nestjs/common';
import { ClientProxy, NatsContext, NatsRecordBuilder, Transport, type NatsOptions } from '@nestjs/microservices';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { REQUEST_ID_HEADER, isRpcError, type RpcError } from '@vigil/proto';
import { Observable, TimeoutError, firstValueFrom, timeout } from 'rxjs';
import { currentRequestId, runWithRequestId } from './context.js';
import { DomainError } from './errors.js';

export const NATS_CLIENT = Symbol('NATS_CLIENT');

function servers(natsUrl: string): string[] {
  return natsUrl.split(',').map((s) => s.trim());
}

/**
 * A service listens in a queue group named after itself, so replicas share the
 * load of request/reply subjects instead of all answering the same request.
 */
export function natsServerOptions(natsUrl: string, service: string): NatsOptions {
  return {
    transport: Transport.NATS,
    options: {
      servers: servers(natsUrl),
      queue: service,
      name: `vigil-${service}`,
      // Draining held shutdown for ~10 s per service; an unanswered request times out at the
      // caller and durable work is redelivered by JetStream, so a prompt close is safe.
      gracefulShutdown: false,
      // Keep retrying: a broker restart must not take the service down with it.
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
    },
  };
}

export function natsClientOptions(natsUrl: string, service: string): NatsOptions {
  return {
    transport: Transport.NATS,
    options: { servers: servers(natsUrl), name: `vigil-${service}-client`, maxReconnectAttempts: -1, reconnectTimeWait: 500 },
  };
}

/**
 * Restores the caller's request id around every NATS handler so that the
 * handler's logs and its own outgoing requests carry it.
 */
@Injectable()
export class RequestIdInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const ctx = context.switchToRpc().getContext<NatsContext>();
    const hdrs = ctx?.getHeaders?.() as { get(key: string): string } | undefined;
    const requestId = hdrs?.get(REQUEST_ID_HEADER) || undefined;
    return new Observable((subscriber) => runWithRequestId(requestId, () => next.handle().subscribe(subscriber)));
  }
}

/**
 * Request/reply over NATS with a deadline, the current request id as a header,
 * and remote failures turned back into DomainErrors carrying the remote code.
 */
@Injectable()
export class RpcClient implements OnApplicationShutdown {
  constructor(
    @Inject(NATS_CLIENT) private readonly client: ClientProxy,
    @Inject('RPC_TIMEOUT_MS') private readonly defaultTimeoutMs: number,
  ) {}

  async request<T>(subject: string, payload: unknown, options: { timeoutMs?: number } = {}): Promise<T> {
    const hdrs = natsHeaders();
    const requestId = currentRequestId();
    if (requestId) hdrs.set(REQUEST_ID_HEADER, requestId);
    const record = new NatsRecordBuilder(payload).setHeaders(hdrs).build();
    try {
      return await firstValueFrom(
        this.client.send<T>(subject, record).pipe(timeout(options.timeoutMs ?? this.defaultTimeoutMs)),
      );
    } catch (error) {
      throw toDomainError(error, subject);
    }
  }

  async emit(subject: string, payload: unknown): Promise<void> {
    const hdrs = natsHeaders();
    const requestId = currentRequestId();
    if (requestId) hdrs.set(REQUEST_ID_HEADER, requestId);
    await firstValueFrom(this.client.emit(subject, new NatsRecordBuilder(payload).setHeaders(hdrs).build()), {
      defaultValue: undefined,
    });
  }

  async onApplicationShutdown() {
    await this.client.close();
  }
}

function toDomainError(error: unknown, subject: string): DomainError {
  if (error instanceof DomainError) return error;
  if (error instanceof TimeoutError) {
    return new DomainError('UPSTREAM_TIMEOUT', `No answer on ${subject} in time.`);
  }
  if (isRpcError(error)) {
    const rpc: RpcError = error;
    return new DomainError(rpc.code, rpc.message, rpc.errors, rpc.retryAfterSeconds);
  }
  return new DomainError('SERVICE_UNAVAILABLE', `The request on ${subject} failed.`);
}
