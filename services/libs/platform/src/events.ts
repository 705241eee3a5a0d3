import { Injectable } from '@nestjs/common';
import { JetStreamApiError, JetStreamError } from '@nats-io/jetstream';
import { NoRespondersError, TimeoutError, headers as natsHeaders, type Msg, type MsgHdrs } from '@nats-io/transport-node';
import { REQUEST_ID_HEADER } from '@vigil/proto';
import { currentRequestId } from './context.js';
import { Nats, ReplyInbox } from './nats.js';
import { injectTraceHeaders } from './tracing.js';

/** How long a publish waits for the stream's acknowledgement. */
const PUBLISH_ACK_TIMEOUT_MS = 5_000;

/** An event as an outbox stores it: already JSON, its id the message id, with the trace of the request that wrote it. */
export type StoredEvent = { subject: string; json: string; id: string; traceparent: string | null };

/**
 * Durable events: JetStream publishes on the process's one connection, each awaited until the
 * stream has stored it. `messageId` (Nats-Msg-Id) makes a re-publication within the stream's
 * duplicate window a no-op, so a publisher that retries after a lost acknowledgement, or an
 * outbox relay that re-sends a row, does not store the event twice. Waits for the service's
 * streams (PlatformModule.forRoot's `streams`) the first time.
 */
@Injectable()
export class EventPublisher {
  private inbox: ReplyInbox | undefined;

  constructor(private readonly nats: Nats) {}

  /** Publishes `payload` as JSON with the current request id and trace context as headers. */
  async publish(subject: string, payload: unknown, messageId?: string): Promise<void> {
    const hdrs = natsHeaders();
    const requestId = currentRequestId();
    if (requestId) hdrs.set(REQUEST_ID_HEADER, requestId);
    injectTraceHeaders(hdrs);
    await this.send(subject, JSON.stringify(payload), messageId, hdrs);
  }

  /**
   * Publishes stored events (an outbox's rows) and answers, in their order, each one's outcome:
   * undefined once the stream has stored it (or already had its id), else the error, as
   * `js.publish` would have thrown it: the stream's JetStreamApiError, NoRespondersError when no
   * stream takes the subject, TimeoutError when no acknowledgement came within the deadline,
   * RequestError once the connection has closed, or the failure to create the streams; it never
   * throws. The request that wrote a row has long answered: its stored traceparent, not the
   * relay's context, names the trace.
   *
   * The acknowledgements come to one ReplyInbox of this publisher's, under one deadline for the
   * call. `js.publish` is a nats.js request() each: a random inbox token, a
   * timer, a deferred raced against it and, for every acknowledged publish, a RequestError with its
   * stack trace (cancel() after the resolve), which cost the relay 50-55 µs of CPU per event.
   */
  async publishStored(events: readonly StoredEvent[], timeoutMs = PUBLISH_ACK_TIMEOUT_MS): Promise<unknown[]> {
    if (events.length === 0) return [];
    try {
      await this.nats.streamsReady();
    } catch (error) {
      // The streams could not be created (JetStream unreachable): no event was published.
      return events.map(() => error);
    }
    const inbox = (this.inbox ??= new ReplyInbox(this.nats.connection));
    const outcomes = new Array<unknown>(events.length).fill(undefined);
    let remaining = events.length;
    let done!: () => void;
    const settled = new Promise<void>((resolve) => (done = resolve));
    const settle = (index: number, outcome: unknown) => {
      if (outcome !== undefined) outcomes[index] = outcome;
      if (--remaining === 0) done();
    };
    const tokens = events.map((event, i) => {
      const hdrs = natsHeaders();
      hdrs.set('Nats-Msg-Id', event.id);
      if (event.traceparent) hdrs.set('traceparent', event.traceparent);
      return inbox.send(event.subject, event.json, hdrs, (error, ack) => settle(i, error ?? outcomeOf(ack!)));
    });
    if (remaining > 0) {
      // One deadline for the call: what is still awaited when it comes has timed out.
      const timer = setTimeout(() => {
        tokens.forEach((token, i) => {
          if (token !== undefined && inbox.forget(token)) settle(i, new TimeoutError());
        });
      }, timeoutMs);
      await settled;
      clearTimeout(timer);
    }
    return outcomes;
  }

  private async send(subject: string, data: string, messageId: string | undefined, hdrs: MsgHdrs | undefined) {
    await this.nats.streamsReady();
    await this.nats.js.publish(subject, data, {
      timeout: PUBLISH_ACK_TIMEOUT_MS,
      ...(hdrs ? { headers: hdrs } : {}),
      ...(messageId ? { msgID: messageId } : {}),
    });
  }
}

/**
 * What a stream's acknowledgement says, as `js.publish` reads it: undefined for a stored (or
 * duplicate) message, else the error it would have thrown.
 */
function outcomeOf(msg: Msg): Error | undefined {
  if (msg.data.length === 0) {
    const code = msg.headers?.code;
    return code === 503 ? new NoRespondersError(msg.subject) : new JetStreamError(`invalid ack response (status ${code ?? 'none'})`);
  }
  let ack: { stream?: string; error?: { code: number; err_code?: number; description: string } };
  try {
    ack = msg.json();
  } catch {
    return new JetStreamError('invalid ack response');
  }
  if (ack.error) return new JetStreamApiError(ack.error as ConstructorParameters<typeof JetStreamApiError>[0]);
  if (!ack.stream) return new JetStreamError('invalid ack response');
  return undefined;
}
