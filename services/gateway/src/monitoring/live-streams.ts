import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DomainError, Nats } from '@vigil/platform';
import type { Caller } from '../credentials/credentials.js';
import { keyRevokedEventSchema, memberChangedEventSchema, sessionRevokedEventSchema, subjects } from '@vigil/proto';
import { GATEWAY_CONFIG } from '../config.token.js';
import { SessionTokens } from '../credentials/session-tokens.service.js';
import type { GatewayConfig } from '../env.js';

/**
 * Who opened a live stream, and the client it reads: a session's user and the session, or a
 * server by its API key alone (identified by the key's SHA-256, as auth knows it).
 */
export type StreamOpener = { userId: string; sessionId: string } | { keyHash: string };
export type StreamHolder = StreamOpener & { clientId: string };

/** Who the verified credentials say opens a stream: the session when there is one, else the key. */
export function streamOpenerOf(caller: Caller): StreamOpener {
  if (caller.user) return { userId: caller.user.id, sessionId: caller.user.sessionId };
  if (caller.keyHash) return { keyHash: caller.keyHash };
  throw new DomainError('UNAUTHENTICATED', 'Sign in, or send your API key.');
}

type OpenStream = StreamHolder & { close: () => void };

/** Whose streams count together against LIVE_STREAMS_PER_USER: a user's, or a key's. */
const holderOf = (s: StreamHolder) => ('keyHash' in s ? `key:${s.keyHash}` : `user:${s.userId}`);

/**
 * The live streams open on this replica (issue #33). A stream is authorised once, when it opens,
 * and would otherwise push for as long as the connection lasts: it is ended when its session
 * ends (sign-out, revocation, refresh-token reuse, password reset, and removal from the team,
 * which revokes every session of the member), when its user leaves the client, and when its user
 * opens more than LIVE_STREAMS_PER_USER (the oldest gives way, so a reconnecting tab is never
 * refused for a stream the server has not noticed is gone). A stream opened with an API key alone
 * ends when that key is regenerated or revoked, or its client deleted, and a key holds at most as
 * many as a user. Every replica hears every event.
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
      [subjects.clients.keyRevoked, (payload: unknown) => this.onKeyRevoked(payload)],
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
    if ('sessionId' in holder && this.tokens.hasEnded(holder.sessionId)) {
      this.end(stream);
      return () => undefined;
    }
    const mine = [...this.open].filter((s) => holderOf(s) === holderOf(holder));
    for (const oldest of mine.slice(0, Math.max(0, mine.length - this.config.LIVE_STREAMS_PER_USER))) this.end(oldest);
    return () => void this.open.delete(stream);
  }

  onSessionRevoked(payload: unknown) {
    const event = sessionRevokedEventSchema.parse(payload);
    this.endWhere((s) => 'sessionId' in s && s.sessionId === event.session_id);
  }

  /** A key regenerated or revoked ends the streams it opened; a deleted client ends all of its streams. */
  onKeyRevoked(payload: unknown) {
    const event = keyRevokedEventSchema.parse(payload);
    this.endWhere(
      (s) =>
        ('keyHash' in s && s.keyHash === event.keyHash) ||
        (event.reason === 'client_deleted' && s.clientId === event.clientId),
    );
  }

  /** A role change keeps the stream (every member may read it); leaving the client ends it. */
  onMemberChanged(payload: unknown) {
    const event = memberChangedEventSchema.parse(payload);
    this.endWhere((s) => 'userId' in s && s.userId === event.user_id && s.clientId !== event.client_id);
  }

  private endWhere(match: (stream: OpenStream) => boolean) {
    for (const stream of [...this.open]) if (match(stream)) this.end(stream);
  }

  private end(stream: OpenStream) {
    this.open.delete(stream);
    stream.close();
  }
}
