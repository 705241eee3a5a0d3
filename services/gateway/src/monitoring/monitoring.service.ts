import { Inject, Injectable } from '@nestjs/common';
import { DomainError, Nats } from '@vigil/platform';
import {
  monitoringPushSchema,
  subjects,
  type MonitoringActor,
  type MonitoringCaller,
  type MonitoringPush,
  type ResolvedKey,
} from '@vigil/proto';
import { Observable } from 'rxjs';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { Caller } from '../credentials/credentials.js';
import type { GatewayConfig } from '../env.js';
import { LiveStreams, type StreamOpener } from './live-streams.js';

/** What monitoring needs to know of the caller: who, and what it may screen with which thresholds. */
export const monitoringCaller = (client: ResolvedKey): MonitoringCaller => ({
  clientId: client.clientId,
  tier: client.tier,
  feeds: client.feeds,
  thresholds: client.thresholds,
});

/**
 * Who makes a monitoring change, for the client's audit chain: the signed-in member, or the API
 * key that alone authenticated the request, by its prefix (the key itself never leaves here).
 */
export function monitoringActor(caller: Caller): MonitoringActor {
  if (caller.user) return { kind: 'user', userId: caller.user.id, email: caller.user.email };
  const keyPrefix = caller.client?.keyPrefix;
  // The guard resolved a key to reach here, and a resolved key has its prefix: never expected.
  if (!keyPrefix) throw new DomainError('UNAUTHENTICATED', 'Sign in or send the API key.');
  return { kind: 'api_key', keyPrefix };
}

/** §9: live push (websocket / real-time access) is for the medium tier and up. */
const PUSH_TIERS: ReadonlySet<ResolvedKey['tier']> = new Set(['medium', 'large']);

/** The live push of monitoring's events to a client, and the deadline of screening requests. */
@Injectable()
export class Monitoring {
  constructor(
    private readonly nats: Nats,
    private readonly streams: LiveStreams,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** The deadline of requests that screen (the manual check, bulk add). */
  get slowTimeoutMs(): number {
    return this.config.BULK_SCREEN_TIMEOUT_MS;
  }

  /**
   * The client's new alerts and review items as they happen (a comment every 15 s keeps proxies
   * open), until the holder's session ends, they leave the client or open too many (LiveStreams).
   */
  push(client: ResolvedKey, holder: StreamOpener): Observable<MonitoringPush | null> {
    if (!PUSH_TIERS.has(client.tier)) {
      throw new DomainError('FORBIDDEN', 'Live updates come with the medium plan and up; upgrade to use them.');
    }
    return new Observable<MonitoringPush | null>((subscriber) => {
      let closed = false;
      const release = this.streams.register({ ...holder, clientId: client.clientId }, () => subscriber.complete());
      const keepAlive = setInterval(() => subscriber.next(null), 15_000);
      const subscription = this.nats.connection.subscribe(subjects.monitoring.push(client.clientId), {
        callback: (error, message) => {
          if (error) return subscriber.error(error);
          const parsed = monitoringPushSchema.safeParse(message.json());
          if (parsed.success) subscriber.next(parsed.data);
        },
      });
      // Subscribed at the broker once flushed: anything raised from then on will be pushed. Tell the client.
      this.nats.connection
        .flush()
        .then(() => !closed && subscriber.next(null))
        .catch((error: unknown) => subscriber.error(error));
      return () => {
        closed = true;
        release();
        clearInterval(keepAlive);
        subscription.unsubscribe();
      };
    });
  }
}
