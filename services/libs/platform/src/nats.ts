import {
  Inject,
  Injectable,
  Logger,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { NatsContext, ServerNats } from '@nestjs/microservices';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import {
  NoRespondersError,
  RequestError,
  TimeoutError,
  connect,
  createInbox,
  nkeyAuthenticator,
  headers as natsHeaders,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
  type Subscription,
  type SubscriptionOptions,
} from '@nats-io/transport-node';
import {
  REQUEST_ID_HEADER,
  isRpcError,
  type Contract,
  type EventContract,
  type PayloadOf,
  type ReplyOf,
  type RequestOf,
  type RpcError,
  type ServiceName,
  inboxPrefixOf,
} from '@vigil/proto';
import { Observable } from 'rxjs';
import { currentRequestId, runWithRequestId } from './context.js';
import { DomainError } from './errors.js';
import { checkReply } from './contracts.js';
import { observeNatsRequest } from './metrics.js';
import { ensureStreams, type StreamSpec } from './streams.js';
import { endSpan, injectTraceHeaders, startSpan, withContext } from './tracing.js';

function servers(natsUrl: string): string[] {
  return natsUrl.split(',').map((s) => s.trim());
}

/** Who the process is on the bus: its NKey seed, and the service whose permissions and inbox it takes. */
export type NatsIdentity = {
  /** The service's NKey seed (NATS_NKEY_SEED); without it the connection carries no credentials. */
  seed?: string;
  /** Replies to this process's requests arrive under `inboxPrefixOf(service)`, which only it may subscribe to. */
  service?: ServiceName;
  /** A CA bundle to verify a tls:// server by (NATS_TLS_CA_FILE). */
  caFile?: string;
};

/**
 * How a process connects: keep retrying (a broker restart must not take the service down with
 * it), and no async stack traces: the client would otherwise build an Error, stack and all, for
 * every request it sends just in case it times out; on the screening path that is one per screen
 * on both sides, for a trace nobody reads (timeouts are logged by subject, which is enough).
 * With an identity: the service's NKey (the server signs nothing over without it) and its own
 * inbox prefix (the server lets no other service subscribe to its replies).
 */
export function natsConnectionOptions(natsUrl: string, name: string, identity: NatsIdentity = {}) {
  return {
    servers: servers(natsUrl),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    noAsyncTraces: true,
    ...(identity.seed ? { authenticator: nkeyAuthenticator(new TextEncoder().encode(identity.seed)) } : {}),
    ...(identity.service ? { inboxPrefix: inboxPrefixOf(identity.service) } : {}),
    ...(identity.caFile ? { tls: { caFile: identity.caFile } } : {}),
  };
}

/** Opens the process's one NATS connection, named `vigil-<name>` (the name the broker's /connz shows). */
export async function connectNats(natsUrl: string, name: string, identity: NatsIdentity = {}): Promise<NatsConnection> {
  const nc = await connect(natsConnectionOptions(natsUrl, `vigil-${name}`, identity));
  reportPermissionErrors(nc, name);
  return nc;
}

/**
 * Logs what the server refused this connection (a publish or subscribe outside the service's
 * permissions). The client reports these only on its status stream; unlogged, a request the table
 * forgot would look like a timeout.
 */
function reportPermissionErrors(nc: NatsConnection, name: string): void {
  const logger = new Logger('Nats');
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'error' && /permission/i.test(status.error.message))
        logger.error(`${name}: the bus refused: ${status.error.message}`);
    }
  })().catch(() => undefined);
}

/** Injection token of the default request deadline (NATS_REQUEST_TIMEOUT_MS). */
export const RPC_TIMEOUT_MS = 'RPC_TIMEOUT_MS';

/** A drain that has not finished by then is cut short: shutdown must not wait on an unreachable broker. */
const DRAIN_DEADLINE_MS = 5_000;

/**
 * The process's one NATS connection, shared by everything that speaks NATS in it: the Nest
 * server's request/event subscriptions (NatsServer), Responder's subscriptions, RpcClient's requests and core events, the
 * EventPublisher's JetStream publishes and every JetStream consumer. One connection means one
 * socket, one reconnect loop and one ordered flush of what the process publishes.
 *
 * It also creates the JetStream streams the service publishes to (`streams` of
 * PlatformModule.forRoot), at boot and again on demand after a failure, so publishers can
 * await `streamsReady()` and consumers elsewhere can attach whenever they start.
 */
export class Nats implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Nats');
  readonly js: JetStreamClient;
  private manager: Promise<JetStreamManager> | undefined;
  private ready: Promise<void> | undefined;

  constructor(
    readonly connection: NatsConnection,
    private readonly streams: readonly StreamSpec[] = [],
  ) {
    this.js = jetstream(connection);
  }

  /**
   * JetStream's management API; a failed look-up (JetStream not there yet) is retried on the next call.
   * Without the client's API check: it asks `$JS.API.INFO`, the account's usage, which no service's
   * bus permissions allow (@vigil/proto busPermissionsOf); the first stream call meets a missing
   * JetStream just as well.
   */
  jetstreamManager(): Promise<JetStreamManager> {
    this.manager ??= jetstreamManager(this.connection, { checkAPI: false }).catch((error: unknown) => {
      this.manager = undefined;
      throw error;
    });
    return this.manager;
  }

  /** Resolves once this service's streams exist with their subjects; a failure is retried on the next call. */
  streamsReady(): Promise<void> {
    this.ready ??= (async () => {
      if (this.streams.length > 0) await ensureStreams(await this.jetstreamManager(), this.streams);
    })().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  onApplicationBootstrap(): void {
    if (this.streams.length === 0) return;
    this.streamsReady().catch((error: unknown) =>
      this.logger.warn(`could not create the streams yet, will retry on publish: ${messageOf(error)}`),
    );
  }

  /** Every replica gets every message on `subject` (core NATS, no queue group), Nest envelope or not. */
  subscribeAll(subject: string, handler: (payload: unknown) => void): Promise<void> {
    const sub = this.connection.subscribe(subject);
    void (async () => {
      for await (const msg of sub) {
        try {
          const body = msg.json<unknown>();
          // RpcClient.emit wraps an event as {pattern, data}, as Nest does; plain publishers send the event itself.
          const isNestPacket = typeof body === 'object' && body !== null && 'pattern' in body && 'data' in body;
          handler(isNestPacket ? (body as { data: unknown }).data : body);
        } catch (error) {
          this.logger.warn(`bad message on ${subject}: ${messageOf(error)}`);
        }
      }
    })();
    // Subscribed at the broker when this resolves, so a message published after it is not missed.
    return this.connection.flush();
  }

  /**
   * Runs last (PlatformModule is global, so its shutdown hook follows every feature module's):
   * consumers have stopped and the Nest server has unsubscribed, so draining delivers what is
   * still buffered and flushes what the process published before the socket closes.
   */
  async onApplicationShutdown(): Promise<void> {
    if (this.connection.isClosed()) return;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, DRAIN_DEADLINE_MS)));
    await Promise.race([this.connection.drain().catch(() => undefined), deadline]);
    clearTimeout(timer);
    if (!this.connection.isClosed()) await this.connection.close().catch(() => undefined);
  }
}

/**
 * Nest's NATS server on the process's shared connection, in a queue group named after the
 * service so replicas share request/reply subjects instead of all answering the same request.
 * Nest opens a connection of its own in ServerNats.createNatsClient and closes it in close();
 * this takes the shared one instead and, on close, only unsubscribes: the connection outlives
 * the server until Nats drains it.
 *
 * Each subscribed subject's route is worked out once. Nest looks the handler up on every message
 * by trying `JSON.parse` on the subject first (patterns may be objects); a plain subject such as
 * `screening.v1.screen` throws, and building that SyntaxError with its stack trace cost about 2%
 * of the screening service's CPU per screen. The route is a pure function of the subject, and
 * the subjects are the ones this server subscribed to, so the cache holds a handful of entries.
 */
export class NatsServer extends ServerNats {
  private readonly own: Subscription[] = [];
  private readonly routes = new Map<string, string>();

  constructor(
    private readonly shared: () => Nats,
    service: string,
  ) {
    super({ queue: service });
  }

  override createNatsClient(): Promise<NatsConnection> {
    return Promise.resolve(this.shared().connection);
  }

  /** Nest's subscriptions, kept so close() can take back exactly these. */
  override bindEvents(client: NatsConnection): void {
    super.bindEvents({
      subscribe: (subject: string, options?: SubscriptionOptions) => {
        const sub = client.subscribe(subject, options);
        this.own.push(sub);
        return sub;
      },
    });
  }

  override async close(): Promise<void> {
    for (const sub of this.own.splice(0)) sub.unsubscribe();
  }

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
 * Replies to many requests on one inbox subscription (`<inbox>.<token>`), as the client
 * library's own request() multiplexes them, without what its request() builds per call (a timer
 * promise, a race, and an Error with its stack trace even for an answered request). `send`
 * publishes with the reply to this inbox and calls `settle` once: with the reply, or with the
 * failure (what the publish threw, the subscription's error, RequestError once the connection
 * has closed). Deadlines are the caller's: `forget` a token whose reply it no longer awaits.
 */
export class ReplyInbox {
  private prefix: string | undefined;
  private next = 0;
  private readonly waiting = new Map<string, Settle>();
  private closed = false;

  constructor(private readonly nc: NatsConnection) {
    if (nc.isClosed()) this.closed = true;
    else
      void nc.closed().then(() => {
        this.closed = true;
        this.failAll(new RequestError('connection closed'));
      });
  }

  /** The token the reply is awaited under, or undefined when `settle` was already called with the failure. */
  send(subject: string, body: string, headers: MsgHdrs, settle: Settle): string | undefined {
    if (this.closed) {
      settle(new RequestError('connection closed'), undefined);
      return undefined;
    }
    const prefix = this.subscribed();
    const token = String(++this.next);
    this.waiting.set(token, settle);
    try {
      this.nc.publish(subject, body, { reply: `${prefix}${token}`, headers });
    } catch (error) {
      this.waiting.delete(token);
      settle(error, undefined);
      return undefined;
    }
    return token;
  }

  /** Stops awaiting `token`'s reply: true when it was still awaited (the caller's deadline came first). */
  forget(token: string): boolean {
    return this.waiting.delete(token);
  }

  /** Subscribed on first use: most processes never publish stored events. */
  private subscribed(): string {
    if (this.prefix !== undefined) return this.prefix;
    // The connection's inbox prefix (a service's own, `_INBOX_<service>`): the only inbox its permissions let it subscribe to.
    const prefix = `${createInbox(inboxPrefixOfConnection(this.nc))}.`;
    this.prefix = prefix;
    this.nc.subscribe(`${prefix}*`, {
      callback: (error, msg) => {
        if (error) {
          // The subscription is gone (a permissions error ends it): the next send subscribes afresh.
          if (this.prefix === prefix) this.prefix = undefined;
          this.failAll(error);
          return;
        }
        const token = msg.subject.slice(prefix.length);
        const settle = this.waiting.get(token);
        if (settle === undefined) return;
        this.waiting.delete(token);
        settle(undefined, msg);
      },
    });
    return prefix;
  }

  private failAll(error: Error) {
    for (const [token, settle] of this.waiting) {
      this.waiting.delete(token);
      settle(error, undefined);
    }
  }
}

/** The connection's `inboxPrefix` option (the implementation keeps its options; the interface does not name them). */
function inboxPrefixOfConnection(nc: NatsConnection): string | undefined {
  return (nc as { options?: { inboxPrefix?: string } }).options?.inboxPrefix;
}

/** A request's outcome: its failure, or (error undefined) its reply. */
type Settle = (error: unknown, reply: Msg | undefined) => void;

/**
 * Request/reply over NATS with a deadline, the current request id as a header,
 * and remote failures turned back into DomainErrors carrying the remote code.
 *
 * Requests go through the process's NATS connection in the envelope Nest's server reads
 * ({pattern, data, id}) and answers ({response} or {err}), with replies to one ReplyInbox of
 * this client's. Nest's send() subscribes and unsubscribes a fresh inbox per request (two
 * protocol operations per call on the hottest path); the library's request() costs 2% of the
 * gateway's CPU per screen (see ReplyInbox). Here a request is a map entry and a timer; the
 * failures are the library's: its TimeoutError after the deadline, NoRespondersError for the
 * broker's 503 status reply, and RequestError once the connection has closed.
 */
@Injectable()
export class RpcClient {
  private readonly logger = new Logger('RpcClient');
  private readonly nc: NatsConnection;
  private nextId = 0;
  private readonly inbox: ReplyInbox;

  constructor(
    nats: Nats,
    @Inject(RPC_TIMEOUT_MS) private readonly defaultTimeoutMs: number,
  ) {
    this.nc = nats.connection;
    this.inbox = new ReplyInbox(this.nc);
  }

  /** One request on the client's inbox: the reply's bytes, or the library's error for its failure. */
  private exchange(subject: string, body: string, hdrs: MsgHdrs, timeoutMs: number) {
    return new Promise<Uint8Array>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const token = this.inbox.send(subject, body, hdrs, (error, reply) => {
        clearTimeout(timer);
        if (error !== undefined) reject(error);
        else if (reply!.data.length === 0 && reply!.headers?.code === 503) reject(new NoRespondersError(subject));
        else resolve(reply!.data);
      });
      if (token !== undefined)
        timer = setTimeout(() => {
          if (this.inbox.forget(token)) reject(new TimeoutError());
        }, timeoutMs);
    });
  }

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
      data = await this.exchange(
        subject,
        JSON.stringify({ pattern: subject, data: payload, id }),
        hdrs,
        options.timeoutMs ?? this.defaultTimeoutMs,
      );
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
      // The envelope Nest's server reads as an event ({pattern, data} and no id).
      this.nc.publish(event.subject, JSON.stringify({ pattern: event.subject, data: payload }), { headers: hdrs });
    } catch (error) {
      this.logger.warn(`could not publish ${event.subject}: ${messageOf(error)}`);
    }
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

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
  // The NATS client's deadline, possibly wrapped in a RequestError.
  if (isNatsTimeout(error)) {
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
