import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Msg, Subscription } from '@nats-io/transport-node';
import { REQUEST_ID_HEADER, type Contract, type ParsedRequestOf, type ReplyInputOf } from '@vigil/proto';
import { runWithRequestId } from './context.js';
import { checkReply } from './contracts.js';
import { Nats } from './nats.js';
import { observeRpc } from './observability.interceptor.js';
import { toRpcError } from './rpc-error.filter.js';
import { withContext } from './tracing.js';
import { parseMessage } from './validation.js';

/** Injection token of the queue group the process's responders join: its service name. */
export const RESPONDER_QUEUE = 'RESPONDER_QUEUE';

/** How long shutdown waits for requests already being answered. */
const SETTLE_DEADLINE_MS = 10_000;

/**
 * Answers a contract's requests straight from a NATS subscription, for the hottest subjects:
 * the same queue group, envelope and guarantees as a `@Handles` method under Nest's server, with
 * none of its per-message machinery (a deserializer and a serializer object, an rxjs pipeline
 * per request with two interceptors and an exception filter, a reply queued through
 * process.nextTick). On screening.v1.screen that machinery cost more CPU than everything the
 * handler does except matching.
 *
 * What a caller sees is unchanged, byte for byte:
 * - the request is Nest's envelope `{pattern, data, id}` (or, as Nest reads it, a bare payload);
 * - the reply is `{"response":…,"isDisposed":true,"id":…}`, a failure `{"err":…,"isDisposed":true,"id":…}`,
 *   with the error mapped by RpcErrorFilter's toRpcError (a DomainError keeps its code; anything else
 *   is logged with its stack and answered as INTERNAL);
 * - the request is parsed with the contract's schema (VALIDATION_FAILED) and the reply checked
 *   against it (INTERNAL) as `@Handles` does;
 * - the handler runs under the caller's request id and trace context, in a server span, and the
 *   request is counted, timed and logged by the interceptor's own observeRpc.
 */
@Injectable()
export class Responder implements OnModuleDestroy {
  private readonly logger = new Logger('Responder');
  private readonly subscriptions: Subscription[] = [];
  private inFlight = 0;
  private settled: (() => void) | undefined;

  constructor(
    private readonly nats: Nats,
    @Inject(RESPONDER_QUEUE) private readonly queue: string,
  ) {}

  /**
   * Subscribes `handle` to the contract's subject, in the service's queue group (replicas share the
   * requests); `what` names the request in a VALIDATION_FAILED message, as in `@Handles`.
   */
  serve<C extends Contract>(
    contract: C,
    handle: (request: ParsedRequestOf<C>) => Promise<ReplyInputOf<C>> | ReplyInputOf<C>,
    what = 'message',
  ): void {
    const subject = contract.subject;
    const answer = async (msg: Msg, id: unknown, data: unknown, finish: (error: unknown) => void): Promise<void> => {
      let outcome: unknown;
      let packet: string;
      try {
        const request = parseMessage(contract.request, data ?? {}, what) as ParsedRequestOf<C>;
        const reply = checkReply(contract, await handle(request), 'sent') as ReplyInputOf<C>;
        packet = `{"response":${JSON.stringify(reply)},"isDisposed":true,"id":${JSON.stringify(id)}}`;
      } catch (error) {
        outcome = error;
        packet = `{"err":${JSON.stringify(toRpcError(error, subject, this.logger))},"isDisposed":true,"id":${JSON.stringify(id)}}`;
      }
      finish(outcome);
      if (msg.reply) msg.respond(packet);
    };
    const sub = this.nats.connection.subscribe(subject, {
      queue: this.queue,
      callback: (error, msg) => {
        if (error) {
          this.logger.error(`subscription to ${subject} failed: ${error.message}`);
          return;
        }
        const envelope = envelopeOf(msg);
        if (!envelope) {
          this.logger.warn(`ignored a message on ${subject} that is not a request (no JSON, or no id)`);
          return;
        }
        this.inFlight++;
        const headers = msg.headers;
        runWithRequestId(headers?.get(REQUEST_ID_HEADER) || undefined, () => {
          const { ctx, finish } = observeRpc(subject, headers);
          withContext(ctx, () =>
            answer(msg, envelope.id, envelope.data, finish)
              .catch((error: unknown) => {
                // Only the publish itself can fail here (the connection closing): nobody is left to answer.
                this.logger.error(
                  `could not answer on ${subject}: ${error instanceof Error ? error.message : String(error)}`,
                );
              })
              .finally(() => {
                if (--this.inFlight === 0) this.settled?.();
              }),
          );
        });
      },
    });
    this.subscriptions.push(sub);
  }

  /**
   * Stops taking requests and waits for those being answered, before the modules they need
   * (database pools, the NATS connection) shut down.
   */
  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.subscriptions.splice(0).map((sub) => sub.drain().catch(() => undefined)));
    if (this.inFlight === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((resolve) => (this.settled = resolve)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, SETTLE_DEADLINE_MS))),
    ]);
    clearTimeout(timer);
  }
}

/**
 * The request in a message as Nest's server reads it: `{pattern, data, id}`. Nest takes a message
 * without an id (or a bare payload, which it wraps without one) for an event: it runs the handler
 * and answers nobody. A request subject has no use for that, so such a message is dropped
 * (undefined), as is one that is not JSON.
 */
function envelopeOf(msg: Msg): { id: unknown; data: unknown } | undefined {
  let body: unknown;
  try {
    body = msg.json<unknown>();
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const packet = body as { pattern?: unknown; data?: unknown; id?: unknown };
  if (packet.pattern === undefined && packet.data === undefined) return undefined;
  if (packet.id === undefined) return undefined;
  return { id: packet.id, data: packet.data };
}
