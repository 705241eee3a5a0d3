import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { Nats } from '@vigil/platform';
import { memberChangedEventSchema, sessionRevokedEventSchema, subjects } from '@vigil/proto';
import { GATEWAY_CONFIG } from '../config.token.js';
import { SessionTokens } from '../credentials/session-tokens.service.js';
import type { GatewayConfig } from '../env.js';

/** Who opened a live stream: the session's user, the session, and the client it reads. */
export type StreamHolder = { userId: string; sessionId: string; clientId: string };

type OpenStream = StreamHolder & { close: () => void };

/**
 * The live streams open on this replica (issue #33). A stream is authorised once, when it opens,
 * and would otherwise push for as long as the connection lasts: it is ended when its session
 * ends (sign-out, revocation, refresh-token reuse, password reset, and removal from the team,
 * which revokes every session of the member), when its user leaves the client, and when its user
 * opens more than LIVE_STREAMS_PER_USER (the oldest gives way, so a reconnecting tab is never
 * refused for a stream the server has not noticed is gone). Every replica hears every event.
 */
@Injectable()
export class LiveStreams implements OnModuleInit {
  private readonly logger = new Logger(LiveStreams.name);
  /** In the order they opened: the first of a user's is their oldest. */
  private readonly open = new Set<OpenStream>();

  constructor(
    private readonly nats: Nats,
    private readonly tokens: SessionTokens,
    @Inject(GATEWAY_CONFIG) private readonly config: Pick<GatewayConfig, 'LIVE_STREAMS_PER_USER'>,
  ) {}

  async onModuleInit() {
    for (const [subject, handler] of [
      [subjects.auth.sessionRevoked, (payload: unknown) => this.onSessionRevoked(payload)],
      [subjects.auth.memberChanged, (payload: unknown) => this.onMemberChanged(payload)],
    ] as const) {
      try {
        await this.nats.subscribeAll(subject, handler);
      } catch (error) {
        this.logger.error(`cannot follow ${subject}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  /** Registers an opened stream, ending the user's oldest beyond the cap; answers its release. */
  register(holder: StreamHolder, close: () => void): () => void {
    const stream: OpenStream = { ...holder, close };
    this.open.add(stream);
    // Revoked between the token's check and now: the event has come and gone, so end it here.
    if (this.tokens.hasEnded(holder.sessionId)) {
      this.end(stream);
      return () => undefined;
    }
    const mine = [...this.open].filter((s) => s.userId === holder.userId);
    for (const oldest of mine.slice(0, Math.max(0, mine.length - this.config.LIVE_STREAMS_PER_USER))) this.end(oldest);
    return () => void this.open.delete(stream);
  }

  onSessionRevoked(payload: unknown) {
    const event = sessionRevokedEventSchema.parse(payload);
    this.endWhere((s) => s.sessionId === event.session_id);
  }

  /** A role change keeps the stream (every member may read it); leaving the client ends it. */
  onMemberChanged(payload: unknown) {
    const event = memberChangedEventSchema.parse(payload);
    this.endWhere((s) => s.userId === event.user_id && s.clientId !== event.client_id);
  }

  private endWhere(match: (stream: OpenStream) => boolean) {
    for (const stream of [...this.open]) if (match(stream)) this.end(stream);
  }

  private end(stream: OpenStream) {
    this.open.delete(stream);
    stream.close();
  }
}
