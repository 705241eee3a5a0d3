import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { resolvedKeySchema, type LiveTicket, type ResolvedKey } from '@vigil/proto';
import { Redis } from 'ioredis';
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { z } from 'zod';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';
import type { StreamOpener } from './live-streams.js';
import { Monitoring } from './monitoring.service.js';

/**
 * The WebSocket beside the SSE stream (issue #37: the plans sell "WebSocket access"): the same
 * events, the same credentials, the same limits. A browser cannot set headers on a WebSocket, so
 * the credentials are judged on an ordinary request (`POST /api/monitoring/live-ticket`, through
 * the guard like every route) and the socket is opened with the single-use ticket it answers.
 */
export const LIVE_SOCKET_PATH = '/api/monitoring/live';
/** Long enough to open a socket right after asking, short enough that a leaked URL is worthless. */
const TICKET_TTL_S = 30;
/** The socket pushes; a client has nothing to say on it but pings, which the protocol answers. */
const MAX_CLIENT_FRAME = 1024;

const ticketGrantSchema = z.object({
  client: resolvedKeySchema,
  opener: z.union([z.object({ userId: z.string(), sessionId: z.string() }), z.object({ keyHash: z.string() })]),
});
type TicketGrant = z.infer<typeof ticketGrantSchema>;

/** A ticket is stored by its SHA-256 only: neither Redis nor a memory dump holds one that opens a socket. */
const ticketKey = (ticket: string) => `live-ticket:${createHash('sha256').update(ticket).digest('hex')}`;

/**
 * Tickets, shared by every replica through Redis (the replica that answers the upgrade need not
 * be the one that issued it); in memory when REDIS_URL is unset (one replica). Redeeming deletes:
 * a ticket opens one socket.
 */
@Injectable()
export class LiveTickets implements OnApplicationShutdown {
  private readonly logger = new Logger(LiveTickets.name);
  private readonly redis: Redis | undefined;
  private readonly memory = new Map<string, { grant: string; expiresAt: number }>();

  constructor(@Inject(GATEWAY_CONFIG) config: Pick<GatewayConfig, 'REDIS_URL'>) {
    if (config.REDIS_URL) {
      this.redis = new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      this.redis.on('error', (error: Error) => this.logger.warn(`redis: ${error.message}`));
    }
  }

  async issue(client: ResolvedKey, opener: StreamOpener): Promise<LiveTicket> {
    const ticket = randomBytes(32).toString('base64url');
    const grant = JSON.stringify({ client, opener } satisfies TicketGrant);
    if (this.redis) await this.redis.set(ticketKey(ticket), grant, 'EX', TICKET_TTL_S);
    else {
      this.forgetExpired();
      this.memory.set(ticketKey(ticket), { grant, expiresAt: Date.now() + TICKET_TTL_S * 1000 });
    }
    return { ticket, path: `${LIVE_SOCKET_PATH}?ticket=${ticket}`, expires_in: TICKET_TTL_S };
  }

  /** The grant a ticket carries, once; null when it is unknown, used or expired. */
  async redeem(ticket: string | null): Promise<TicketGrant | null> {
    if (!ticket || ticket.length > 64) return null;
    const key = ticketKey(ticket);
    let grant: string | null;
    if (this.redis) grant = await this.redis.getdel(key);
    else {
      const held = this.memory.get(key);
      this.memory.delete(key);
      grant = held && held.expiresAt > Date.now() ? held.grant : null;
    }
    if (grant === null) return null;
    const parsed = ticketGrantSchema.safeParse(JSON.parse(grant));
    return parsed.success ? parsed.data : null;
  }

  private forgetExpired() {
    const now = Date.now();
    for (const [key, held] of this.memory) if (held.expiresAt <= now) this.memory.delete(key);
  }

  async onApplicationShutdown() {
    await this.redis?.quit().catch(() => undefined);
  }
}

/** A refusal before the handshake: a problem+json HTTP answer, then the connection closes. */
function refuse(socket: Duplex, status: number, code: string, detail: string) {
  const reason = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 503: 'Service Unavailable' }[status];
  const body = JSON.stringify({ type: 'about:blank', title: reason, status, code, detail });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/problem+json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * Answers WebSocket upgrades at LIVE_SOCKET_PATH and nowhere else. Each frame is one event as
 * JSON text: `{"type":"ready"}` once subscribed, then `monitoring.alert` and
 * `screening.review_required` as the SSE stream sends them; a ping every 15 s keeps proxies open.
 * The socket closes (1000) when the stream would end: sign-out, revocation, removal from the team,
 * a key regenerated, the holder's stream cap.
 */
@Injectable()
export class LiveSocketServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(LiveSocketServer.name);
  private readonly sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_FRAME });

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly tickets: LiveTickets,
    private readonly monitoring: Monitoring,
  ) {}

  onApplicationBootstrap() {
    const server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.onUpgrade(req, socket, head));
  }

  private onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://gateway');
    // Node hands every Upgrade request here once a listener exists; this gateway speaks HTTP/1.1
    // otherwise (an h2c upgrade is refused, not half-served).
    if (url.pathname !== LIVE_SOCKET_PATH || req.headers.upgrade?.toLowerCase() !== 'websocket')
      return refuse(socket, 404, 'NOT_FOUND', `No WebSocket here; the live socket is ${LIVE_SOCKET_PATH}.`);
    this.tickets.redeem(url.searchParams.get('ticket')).then(
      (grant) => {
        if (!grant)
          return refuse(socket, 401, 'UNAUTHENTICATED', 'The ticket is unknown, used or expired: ask for a new one.');
        this.sockets.handleUpgrade(req, socket, head, (ws) => this.serve(ws, grant));
      },
      (error: unknown) => {
        this.logger.warn(`live ticket store: ${error instanceof Error ? error.message : String(error)}`);
        refuse(socket, 503, 'UNAVAILABLE', 'Live updates are unavailable for a moment; try again.');
      },
    );
  }

  private serve(ws: WebSocket, { client, opener }: TicketGrant) {
    let ready = false;
    let stream;
    try {
      stream = this.monitoring.push(client, opener);
    } catch {
      // The plan changed since the ticket was issued: the ticket route's check, applied again.
      return ws.close(1008, 'live updates are not in this plan');
    }
    const subscription = stream.subscribe({
      next: (push) => {
        if (push) ws.send(JSON.stringify(push));
        else if (!ready) ws.send(JSON.stringify({ type: 'ready' }));
        else ws.ping();
        ready = true;
      },
      complete: () => ws.close(1000, 'stream ended'),
      error: () => ws.close(1011, 'stream failed'),
    });
    ws.on('close', () => subscription.unsubscribe());
    ws.on('error', () => ws.terminate());
  }

  onApplicationShutdown() {
    for (const ws of this.sockets.clients) ws.close(1001, 'gateway shutting down');
    this.sockets.close();
  }
}
