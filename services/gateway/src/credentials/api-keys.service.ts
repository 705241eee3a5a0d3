import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DomainError, Nats, RpcClient } from '@vigil/platform';
import {
  API_KEY_PATTERN,
  contracts,
  keyRevokedEventSchema,
  memberChangedEventSchema,
  subjects,
  type MemberRole,
  type ResolvedKey,
  type ResolvedMember,
} from '@vigil/proto';
import { z } from 'zod';
import { hash as digest } from 'node:crypto';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';

type Entry = { value: ResolvedKey | ResolvedMember; expiresAt: number };

/**
 * Billing's events that change what a client may do (tier, quota, status). Every one names the
 * client; that is all the cache needs, so only that is checked here.
 */
const BILLING_SUBJECTS = [
  subjects.billing.tierChanged,
  subjects.billing.subscriptionActivated,
  subjects.billing.paymentFailed,
  subjects.billing.subscriptionCancelled,
] as const;
const billingEventSchema = z.object({ client_id: z.uuid() });

/** Member entries cannot collide with key hashes (64 hex characters). */
const memberEntry = (clientId: string, userId: string) => `member:${clientId}:${userId}`;

// The one-shot digest: no Hash object per request for a key of a few dozen bytes.
export const hashApiKey = (key: string) => digest('sha256', key, 'hex');

/**
 * Who holds an API key. The gateway never keeps raw keys: it asks auth by the key's
 * SHA-256 and remembers the answer for at most KEY_CACHE_TTL_MS (≤ 5 s). A
 * `clients.v1.key-revoked` event evicts at once on every replica, and so do billing's
 * tier-changed, subscription-activated, payment-failed and subscription-cancelled (an upgrade's
 * limits, or a refusal, apply on the next request); the TTL bounds staleness even if those
 * (at-most-once) events are lost.
 */
@Injectable()
export class ApiKeys implements OnModuleInit {
  private readonly logger = new Logger(ApiKeys.name);
  private readonly cache = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<ResolvedKey | ResolvedMember>>();
  /** Bumped by every revocation: a look-up that started before one is not cached. */
  private generation = 0;

  constructor(
    private readonly rpc: RpcClient,
    private readonly nats: Nats,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async onModuleInit() {
    const follow = [
      { subject: subjects.clients.keyRevoked, handler: (payload: unknown) => this.onRevoked(payload) },
      { subject: subjects.auth.memberChanged, handler: (payload: unknown) => this.onMemberChanged(payload) },
      ...BILLING_SUBJECTS.map((subject) => ({ subject, handler: (payload: unknown) => this.onBillingChange(payload) })),
    ];
    for (const { subject, handler } of follow) {
      try {
        await this.nats.subscribeAll(subject, handler);
      } catch (error) {
        // Without the event the TTL still bounds staleness; keep serving.
        this.logger.error(`cannot follow ${subject}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  /** Resolves a presented key; `fresh` is true when auth was asked (not the cache). */
  async resolve(key: string): Promise<{ client: ResolvedKey; fresh: boolean }> {
    if (!API_KEY_PATTERN.test(key)) throw new DomainError('INVALID_API_KEY', 'Invalid API key.');
    const hash = hashApiKey(key);
    return this.lookUp(hash, () => this.rpc.request(contracts.clients.resolveKey, { keyHash: hash }));
  }

  /**
   * A signed-in user's client and their live role in it, cached like a key: a member removed or
   * given another role is seen within KEY_CACHE_TTL_MS (≤ 5 s) even if auth.v1.member-changed,
   * which evicts at once, is lost. A user who is no longer a member gets UNAUTHENTICATED.
   */
  async resolveMember(
    clientId: string,
    userId: string,
  ): Promise<{ client: ResolvedKey; memberRole: MemberRole; fresh: boolean }> {
    const { client, fresh } = await this.lookUp(memberEntry(clientId, userId), () =>
      this.rpc.request(contracts.clients.team.resolveMember, { clientId, userId }),
    );
    const { memberRole, ...resolved } = client as ResolvedMember;
    return { client: resolved, memberRole, fresh };
  }

  private async lookUp(
    entry: string,
    ask: () => Promise<ResolvedKey | ResolvedMember>,
  ): Promise<{ client: ResolvedKey | ResolvedMember; fresh: boolean }> {
    const cached = this.cache.get(entry);
    if (cached && cached.expiresAt > Date.now()) return { client: cached.value, fresh: false };
    let pending = this.inflight.get(entry);
    if (!pending) {
      const generation = this.generation;
      pending = ask()
        .then((value) => {
          if (generation === this.generation && this.config.KEY_CACHE_TTL_MS > 0) {
            // Never past the end of the usage period: the next request must count in the new one.
            const expiresAt = Math.min(Date.now() + this.config.KEY_CACHE_TTL_MS, Date.parse(value.periodEnd));
            this.cache.set(entry, { value, expiresAt });
          }
          return value;
        })
        .finally(() => this.inflight.delete(entry));
      this.inflight.set(entry, pending);
    }
    return { client: await pending, fresh: true };
  }

  private onRevoked(payload: unknown) {
    const event = keyRevokedEventSchema.parse(payload);
    this.generation++;
    this.cache.delete(event.keyHash);
    // The client's member entries name its key prefix (the dashboard's no-key notice): ask again.
    for (const entry of this.cache.keys()) if (entry.startsWith(`member:${event.clientId}:`)) this.cache.delete(entry);
    if (event.reason === 'client_deleted') this.evictClient(event.clientId);
  }

  /**
   * An admin changed the client's thresholds through this replica: its next screen asks auth
   * again instead of using the cached configuration. Other replicas catch up within the TTL.
   */
  forgetClient(clientId: string) {
    this.generation++;
    this.evictClient(clientId);
  }

  /** A member's role changed or they left: their next request asks auth again. */
  private onMemberChanged(payload: unknown) {
    const event = memberChangedEventSchema.parse(payload);
    this.generation++;
    for (const entry of this.cache.keys())
      if (entry.startsWith('member:') && entry.endsWith(`:${event.user_id}`)) this.cache.delete(entry);
  }

  /** The client's tier, quota or status changed: its next request asks auth again. */
  private onBillingChange(payload: unknown) {
    const event = billingEventSchema.parse(payload);
    this.generation++;
    this.evictClient(event.client_id);
  }

  private evictClient(clientId: string) {
    for (const [hash, entry] of this.cache) if (entry.value.clientId === clientId) this.cache.delete(hash);
  }
}
