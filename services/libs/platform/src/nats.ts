import {
  Inject,
  Injectable,
  Logger,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ClientProxy, NatsContext, NatsRecordBuilder, ServerNats, Transport, type CustomStrategy, type NatsOptions } from '@nestjs/microservices';
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import {
  REQUEST_ID_HEADER,
  isRpcError,
  type Contract,
  type EventContract,
  type PayloadOf,
  type ReplyOf,
  type RequestOf,
  type RpcError,
} from '@vigil/proto';
import { Observable, TimeoutError, firstValueFrom } from 'rxjs';
import { currentRequestId, runWithRequestId } from './context.js';
import { DomainError } from './errors.js';
import { checkReply } from './contracts.js';
import { observeNatsRequest } from './metrics.js';
import { endSpan, injectTraceHeaders, startSpan, withContext } from './tracing.js';

export const NATS_CLIENT = Symbol('NATS_CLIENT');

function servers(natsUrl: string): string[] {
  return natsUrl.split(',').map((s) => s.trim());
}

/**
 * What every NATS connection of a service shares: keep retrying (a broker restart must not take
 * the service down with it), and no async stack traces: the client would otherwise build an
 * Error, stack and all, for every request it sends just in case it times out; on the screening
 * path that is one per screen on both sides, for a trace nobody reads (timeouts are logged by
 * subject, which is enough).
 */
export function natsConnectionOptions(natsUrl: string, name: string) {
  return {
    servers: servers(natsUrl),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    noAsyncTraces: true,
  };
}

/**
 * Nest's NATS server, with each subscribed subject's route worked out once. Nest looks the
 * handler up on every message by trying `JSON.parse` on the subject first (patterns may be
 * objects); a plain subject such as `screening.v1.screen` throws, and building that SyntaxError
 * with its stack trace cost about 2% of the screening service's CPU per screen. The route is a
 * pure function of the subject, and the subjects are the ones this server subscribed to, so the
 * cache holds a handful of entries.
 */
export class RoutedServerNats extends ServerNats {
  private readonly routes = new Map<string, string>();

  protected override getRouteFromPattern(pattern: string): string {
    let route = this.routes.get(pattern);
    if (route === undefined) {
      route = super.getRouteFromPattern(pattern);
      this.routes.set(pattern, route);
    }
    return route;
  }
}

/**
 * A service listens in a queue group named after itself, so replicas share the
 * load of request/reply subjects instead of all answering the same request.
 */
export function natsServerOptions(natsUrl: string, service: string): CustomStrategy {
  return {
    strategy: new RoutedServerNats({
      ...natsConnectionOptions(natsUrl, `vigil-${service}`),
      queue: service,
      // Draining held shutdown for ~10 s per service; an unanswered request times out at the
      // caller and durable work is redelivered by JetStream, so a prompt close is safe.
      gracefulShutdown: false,
    }),
  };
}

export function natsClientOptions(natsUrl: string, service: string): NatsOptions {
  return {
    transport: Transport.NATS,
    options: natsConnectionOptions(natsUrl, `vigil-${service}-client`),
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
 *
 * Requests go straight through the ClientProxy's NATS connection with the client library's
 * shared reply inbox, in the envelope Nest's server reads ({pattern, data, id}) and answers
 * ({response} or {err}). Nest's own send() subscribes and unsubscribes a fresh inbox per
 * request, which costs the broker and this process two protocol operations per call on the
 * hottest path (every screen crosses it).
 */
@Injectable()
export class RpcClient implements OnApplicationShutdown {
  private readonly logger = new Logger('RpcClient');
  private nextId = 0;

  constructor(
    @Inject(NATS_CLIENT) private readonly client: ClientProxy,
    @Inject('RPC_TIMEOUT_MS') private readonly defaultTimeoutMs: number,
  ) {}

  /**
   * Sends `payload` on the contract's subject and answers the reply, checked against the
   * contract's reply schema (a reply that does not match is the remote's bug: INTERNAL).
   * The request is typed by the contract; the handler parses it (`@Handles`).
   */
  async request<C extends Contract>(
    contract: C,
    payload: RequestOf<C>,
    options: { timeoutMs?: number } = {},
  ): Promise<ReplyOf<C>> {
    return checkReply(contract, await this.requestUnchecked(contract.subject, payload, options), 'received');
  }

  /**
   * A request outside any contract: for tests that send what no contract allows (to see the
   * handler refuse it) and for tools. Services call `request(contract, …)`.
   */
  async requestUnchecked(subject: string, payload: unknown, options: { timeoutMs?: number } = {}): Promise<unknown> {
    const { data } = await this.send(subject, payload, options);
    return answerOf(subject, data);
  }

  /**
   * The reply's `response` as the JSON bytes the handler's process wrote, for an edge that
   * forwards it unchanged: no parse and re-serialisation of a large answer. The reply schema is
   * not checked again here (the handler's @Handles checked it before sending); a failure is thrown as with `request`.
   */
  async requestBytes<C extends Contract>(
    contract: C,
    payload: RequestOf<C>,
    options: { timeoutMs?: number } = {},
  ): Promise<Uint8Array> {
    const { data, id } = await this.send(contract.subject, payload, options);
    // Nest's NATS server answers JSON.stringify({ response, isDisposed: true, id }): the response
    // is the bytes between that prefix and that exact suffix. Anything else is parsed as usual.
    const suffix = utf8Encode.encode(`,"isDisposed":true,"id":"${id}"}`);
    if (startsWith(data, RESPONSE_PREFIX) && endsWith(data, suffix))
      return data.subarray(RESPONSE_PREFIX.length, data.length - suffix.length);
    return utf8Encode.encode(JSON.stringify(answerOf(contract.subject, data)));
  }

  private async send(subject: string, payload: unknown, options: { timeoutMs?: number }) {
    const hdrs = natsHeaders();
    const requestId = currentRequestId();
    if (requestId) hdrs.set(REQUEST_ID_HEADER, requestId);
    // A client span per request, its context in the headers: the handler's span becomes its child.
    const { span, ctx } = startSpan(subject, { kind: 'client', attributes: { 'messaging.destination.name': subject } });
    withContext(ctx, () => injectTraceHeaders(hdrs));
    const started = performance.now();
    const id = String(++this.nextId);
    let data: Uint8Array;
    try {
      // connect() returns the live connection once connected (and reconnects after a close).
      const nc = (await this.client.connect()) as NatsConnection;
      const message = await nc.request(subject, JSON.stringify({ pattern: subject, data: payload, id }), {
        headers: hdrs,
        timeout: options.timeoutMs ?? this.defaultTimeoutMs,
      });
      data = message.data;
    } catch (error) {
      this.finish(subject, started, span, error);
      throw toDomainError(error, subject);
    }
    this.finish(subject, started, span, failureOf(data));
    return { data, id };
  }

  private finish(subject: string, started: number, span: ReturnType<typeof startSpan>['span'], error: unknown): void {
    observeNatsRequest(subject, (performance.now() - started) / 1000, error === undefined ? 'ok' : 'error');
    endSpan(span, error === undefined ? undefined : isRpcError(error) ? new Error(error.code) : error);
  }

  /**
   * Publishes an event on core NATS, best effort: publishing never fails the work that caused
   * it (a lost core-NATS event is recovered by whoever re-reads the source of truth), so a
   * failure is logged, not thrown. Durable events go through JetStream instead.
   */
  async emit<E extends EventContract>(event: E, payload: PayloadOf<E>): Promise<void> {
    const hdrs = natsHeaders();
    const requestId = currentRequestId();
    if (requestId) hdrs.set(REQUEST_ID_HEADER, requestId);
    injectTraceHeaders(hdrs);
    try {
      await firstValueFrom(this.client.emit(event.subject, new NatsRecordBuilder(payload).setHeaders(hdrs).build()), {
        defaultValue: undefined,
      });
    } catch (error) {
      this.logger.warn(`could not publish ${event.subject}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async onApplicationShutdown() {
    await this.client.close();
  }
}

const utf8 = new TextDecoder();
const utf8Encode = new TextEncoder();
const RESPONSE_PREFIX = utf8Encode.encode('{"response":');

/** What failed in a reply, for the request's metric and span (undefined: an answer). A success is not parsed. */
function failureOf(data: Uint8Array): unknown {
  if (data.length === 0) return 'no reply';
  if (startsWith(data, RESPONSE_PREFIX)) return undefined;
  try {
    const reply = JSON.parse(utf8.decode(data)) as { err?: unknown } | null;
    return reply?.err ?? (reply ? undefined : 'no reply');
  } catch {
    return 'malformed reply';
  }
}

function answerOf(subject: string, data: Uint8Array): unknown {
  let reply: { response?: unknown; err?: unknown } | undefined;
  try {
    if (data.length > 0) reply = JSON.parse(utf8.decode(data)) as typeof reply;
  } catch (error) {
    throw toDomainError(error, subject);
  }
  if (!reply) throw toDomainError(undefined, subject);
  if (reply.err !== undefined && reply.err !== null) throw toDomainError(reply.err, subject);
  return reply.response;
}

function startsWith(data: Uint8Array, prefix: Uint8Array): boolean {
  if (data.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (data[i] !== prefix[i]) return false;
  return true;
}

function endsWith(data: Uint8Array, suffix: Uint8Array): boolean {
  if (data.length < suffix.length) return false;
  const offset = data.length - suffix.length;
  for (let i = 0; i < suffix.length; i++) if (data[offset + i] !== suffix[i]) return false;
  return true;
}

function toDomainError(error: unknown, subject: string): DomainError {
  if (error instanceof DomainError) return error;
  // rxjs's deadline (emit) or the NATS client's (request), possibly wrapped in a RequestError.
  if (error instanceof TimeoutError || isNatsTimeout(error)) {
    return new DomainError('UPSTREAM_TIMEOUT', `No answer on ${subject} in time.`);
  }
  if (isRpcError(error)) {
    const rpc: RpcError = error;
    return new DomainError(rpc.code, rpc.message, rpc.errors, rpc.retryAfterSeconds);
  }
  return new DomainError('SERVICE_UNAVAILABLE', `The request on ${subject} failed.`);
}

function isNatsTimeout(error: unknown): boolean {
  const named = (e: unknown) => e instanceof Error && e.name === 'TimeoutError';
  return named(error) || (error instanceof Error && named(error.cause));
}
