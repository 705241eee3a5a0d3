import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AckPolicy, DeliverPolicy, type JsMsg, type JetStreamManager } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import {
  Nats,
  contextFromHeaders,
  defineCounter,
  endSpan,
  startSpan,
  withContext,
  type HeaderCarrier,
} from '@vigil/platform';
import { durableConsumers, streams, subjects } from '@vigil/proto';
import { AUDIT_CONFIG } from '../config.token.js';
import type { AuditConfig } from '../env.js';
import { AuditTrailRepository } from '../trail/audit-trail.repository.js';
import { rowOf } from './audit-events.js';

type Source = { stream: string; durable: string; subjects: string[] };

const eventsStored = defineCounter({
  name: 'vigil_audit_events_stored_total',
  help: 'Events stored in the audit trail, by subject',
  labelNames: ['subject'],
});

/**
 * The durable consumers: the audit trail's only way in. Each survives restarts of either side. The
 * bus lets audit create and read only these (durableConsumers), and lets only each stream's owner publish to it.
 */
export const AUDIT_SOURCES: readonly Source[] = [
  {
    stream: streams.security.name,
    durable: durableConsumers.auditSecurity.durable,
    subjects: [subjects.gateway.securityEvent],
  },
  {
    stream: streams.screenings.name,
    durable: durableConsumers.auditScreenings.durable,
    subjects: [...streams.screenings.subjects],
  },
  {
    stream: streams.adminActions.name,
    durable: durableConsumers.auditAdminActions.durable,
    subjects: [subjects.gateway.adminAction],
  },
  {
    stream: streams.authEvents.name,
    durable: durableConsumers.auditAuthEvents.durable,
    subjects: [subjects.auth.failedAuth],
  },
  {
    stream: streams.authEvents.name,
    durable: durableConsumers.auditClientChanges.durable,
    subjects: [subjects.auth.clientChanged],
  },
  {
    stream: streams.monitoringEvents.name,
    durable: durableConsumers.auditMonitoringChanges.durable,
    subjects: [subjects.monitoring.clientChanged],
  },
];

const RETRY_MS = 2_000;

/**
 * Reads the audit events from JetStream through durable pull consumers and stores them in
 * batches: whatever has arrived while the previous batch was being written goes in the next
 * transaction, so the trail keeps up under load and adds no delay when idle. A message is
 * acknowledged only after its batch has committed; a crash before that gets it redelivered
 * (after AUDIT_ACK_WAIT_MS) and the unique event id makes the second copy a no-op.
 */
@Injectable()
export class AuditConsumers implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AuditConsumers.name);
  private closed = false;
  private readonly stops: Array<() => void> = [];

  constructor(
    private readonly trail: AuditTrailRepository,
    private readonly nats: Nats,
    @Inject(AUDIT_CONFIG) private readonly config: AuditConfig,
  ) {}

  onApplicationBootstrap(): void {
    for (const source of AUDIT_SOURCES) void this.run(source);
  }

  private async run(source: Source): Promise<void> {
    let lastReason = '';
    while (!this.closed) {
      try {
        await this.attach(await this.nats.jetstreamManager(), source);
        lastReason = '';
        const consumer = await this.nats.js.consumers.get(source.stream, source.durable);
        const messages = await consumer.consume({ max_messages: this.config.AUDIT_BATCH_SIZE * 2 });
        const stop = () => void messages.stop();
        this.stops.push(stop);
        const batcher = new Batcher(this.config.AUDIT_BATCH_SIZE, (batch) => this.store(source, batch));
        for await (const message of messages) batcher.push(message);
      } catch (error) {
        if (this.closed) return;
        const reason = error instanceof Error ? error.message : String(error);
        // The publisher creates its stream; until it has started there is nothing to read.
        if (reason !== lastReason)
          this.logger.warn(`${source.durable}: waiting for stream ${source.stream} (${reason})`);
        lastReason = reason;
      }
      if (!this.closed) await new Promise((r) => setTimeout(r, RETRY_MS));
    }
  }

  private async attach(jsm: JetStreamManager, source: Source): Promise<void> {
    await jsm.streams.info(source.stream);
    const config = {
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(this.config.AUDIT_ACK_WAIT_MS),
      // One subject: filter on it. Several: read the whole stream (servers before 2.10 have no
      // filter_subjects); a subject the trail does not know is dropped by store().
      ...(source.subjects.length === 1 ? { filter_subject: source.subjects[0] } : {}),
      max_ack_pending: this.config.AUDIT_BATCH_SIZE * 4,
    };
    try {
      await jsm.consumers.info(source.stream, source.durable);
      await jsm.consumers.update(source.stream, source.durable, config);
    } catch (error) {
      if (!/consumer not found/i.test(error instanceof Error ? error.message : String(error))) throw error;
      await jsm.consumers
        .add(source.stream, { ...config, durable_name: source.durable, deliver_policy: DeliverPolicy.All })
        .catch(async (raced: unknown) => {
          // Another replica created it first.
          if (!/already (exists|in use)/i.test(raced instanceof Error ? raced.message : String(raced))) throw raced;
        });
    }
  }

  private async store(source: Source, batch: JsMsg[]): Promise<void> {
    const rows = [];
    const readable: JsMsg[] = [];
    for (const message of batch) {
      try {
        rows.push(rowOf(message.subject, message.json()));
        readable.push(message);
      } catch (error) {
        // Never storable: redelivering it would block nothing but would loop forever.
        const reason = error instanceof Error ? error.message : String(error);
        this.logger.error(
          `${source.durable}: dropped unreadable event seq ${message.seq} on ${message.subject}: ${reason}`,
        );
        message.term();
      }
    }
    try {
      await this.trail.append(rows);
      for (const message of readable) message.ack();
      for (const message of readable) this.recorded(message);
    } catch (error) {
      this.logger.error(
        `${source.durable}: storing ${rows.length} events failed, will retry: ${error instanceof Error ? error.message : String(error)}`,
      );
      for (const message of readable) message.nak(RETRY_MS);
    }
  }

  /**
   * One line per stored event, in the trace of the request that caused it (the publisher's
   * `traceparent` header), so a screen's trace id shows in audit's log too.
   */
  private recorded(message: JsMsg): void {
    eventsStored.inc({ subject: message.subject });
    const { span, ctx } = startSpan(`store ${message.subject}`, {
      kind: 'consumer',
      parent: contextFromHeaders(message.headers as HeaderCarrier | undefined),
      attributes: { 'messaging.destination.name': message.subject },
    });
    withContext(ctx, () => this.logger.log(`recorded ${message.subject} seq ${message.seq}`));
    endSpan(span);
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    this.stops.forEach((stop) => stop());
  }
}

/** Feeds messages to `flush` in batches of at most `size`, one batch at a time. */
class Batcher {
  private readonly pending: JsMsg[] = [];
  private running = false;

  constructor(
    private readonly size: number,
    private readonly flush: (batch: JsMsg[]) => Promise<void>,
  ) {}

  push(message: JsMsg): void {
    this.pending.push(message);
    if (!this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.pending.length > 0) await this.flush(this.pending.splice(0, this.size));
    } finally {
      this.running = false;
    }
  }
}
