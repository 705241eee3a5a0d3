import { Injectable } from '@nestjs/common';
import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';
import { REQUEST_ID_HEADER } from '@vigil/proto';
import { currentRequestId } from './context.js';
import { Nats } from './nats.js';
import { injectTraceHeaders } from './tracing.js';

/** How long a publish waits for the stream's acknowledgement. */
const PUBLISH_ACK_TIMEOUT_MS = 5_000;

/**
 * Durable events: JetStream publishes on the process's one connection, each awaited until the
 * stream has stored it. `messageId` (Nats-Msg-Id) makes a re-publication within the stream's
 * duplicate window a no-op, so a publisher that retries after a lost acknowledgement, or an
 * outbox relay that re-sends a row, does not store the event twice. Waits for the service's
 * streams (PlatformModule.forRoot's `streams`) the first time.
 */
@Injectable()
export class EventPublisher {
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
   * Publishes a payload that is already JSON (an outbox row as stored). The request that wrote
   * the row has long answered: its stored traceparent, not the relay's context, names the trace.
   */
  async publishJson(subject: string, json: string, messageId: string, traceparent: string | null = null): Promise<void> {
    let hdrs: MsgHdrs | undefined;
    if (traceparent) {
      hdrs = natsHeaders();
      hdrs.set('traceparent', traceparent);
    }
    await this.send(subject, json, messageId, hdrs);
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
