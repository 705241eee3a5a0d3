import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';
import { QuotaLeasesRepository } from './quota-leases.repository.js';

/** How a lease behaves; the clocks come from the config (tests shorten them). */
export type LeasePolicy = {
  /** A lease not renewed for this long is reclaimed by any replica (its holder died). */
  ttlSeconds: number;
  /** How often a holder renews its leases and sweeps expired ones. */
  renewMs: number;
  /** A lease unused for this long goes back, so an idle replica does not sit on quota. */
  idleMs: number;
  /** A block takes at most this share of what remains (1/fraction): large far from the limit, down to the request near it. */
  fraction: number;
  /** A block never exceeds this many names beyond the request, nor ~10 s of this client's traffic here. */
  maxExtra: number;
  /** The promise runs this far ahead of use: what a killed replica can cost its client at most. */
  promiseAheadMs: number;
};

const BLOCK_POLICY = {
  fraction: 16,
  maxExtra: 10_000,
  promiseAheadMs: 250,
};

type Waiting = { amount: number; done: (taken: Taken | null) => void; fail: (error: unknown) => void };

/** One client's lease for one period on this replica. All counts are for the current lease row. */
type Lease = {
  readonly key: string;
  readonly clientId: string;
  readonly period: string;
  readonly periodEnd: number;
  readonly quota: number;
  readonly holder: string;
  /** Names taken from the counter under this lease. */
  granted: number;
  /** Names answered from it (a failed screening gives its names back here). */
  served: number;
  /** The durable bound on `served`: nothing beyond it is answered. */
  promised: number;
  /** The counter's total as last seen, to tell the 80%/100% crossings. */
  lastTotal: number;
  /** The total last reported to a caller: each change is reported once. */
  reportedTotal: number;
  waiting: Waiting[];
  busy: boolean;
  retired: boolean;
  lastUsedAt: number;
  /** Names served per second, smoothed: sizes blocks and promises. */
  rate: number;
  servedAtLastTick: number;
  promising: Promise<void> | undefined;
};

export type Taken = { total: number; before: number };

/**
 * Quota leases (after Google's quota servers and Doorman): each gateway replica takes blocks of a
 * client's period quota from Postgres in one atomic statement and counts requests against them in
 * memory, so a screen does not wait on a quota statement. The counter in Postgres includes every
 * block handed out, so the quota is never overshot however many replicas serve a client. Near the
 * limit blocks shrink to the request itself, which is exactly the old per-request reservation.
 *
 * A replica gives its unused names back on shutdown, when a lease sits idle and when the period
 * ends. A replica killed without that leaves a lease that expires after `ttlSeconds`; any replica
 * then gives back the part never promised (the promise runs ~`promiseAheadMs` of traffic ahead of
 * use, durable before anything under it is answered).
 */
@Injectable()
export class QuotaLeases implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(QuotaLeases.name);
  readonly holder = `${randomUUID()}`;
  private readonly leases = new Map<string, Lease>();
  /** Leases being given back, by key: a new lease for the key waits, so the two rows never mix. */
  private readonly closing = new Map<string, Promise<void>>();
  /** Quotas a client's lease was replaced for (by key), so stale requests do not bring them back. */
  private readonly replaced = new Map<string, Set<number>>();
  private timer: NodeJS.Timeout | undefined;
  private readonly policy: LeasePolicy;

  constructor(
    private readonly repository: QuotaLeasesRepository,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.policy = {
      ...BLOCK_POLICY,
      ttlSeconds: config.QUOTA_LEASE_TTL_SECONDS,
      renewMs: config.QUOTA_LEASE_RENEW_MS,
      idleMs: config.QUOTA_LEASE_IDLE_MS,
    };
  }

  onModuleInit() {
    this.timer = setInterval(() => void this.tick(), this.policy.renewMs);
    this.timer.unref();
  }

  /** Gives every lease back (SIGTERM, via Nest's shutdown hooks), before the pools close. */
  async beforeApplicationShutdown() {
    clearInterval(this.timer);
    await Promise.all([...this.leases.values()].map((lease) => this.retire(lease)));
    await Promise.all(this.closing.values());
  }

  /**
   * Counts `amount` names for the client's period, or answers null: they would overshoot the quota.
   * `total` is the counter after them as far as this replica knows (for the threshold events).
   */
  async take(
    client: { clientId: string; period: string; periodEnd: string; quota: number },
    amount: number,
  ): Promise<Taken | null> {
    if (amount > client.quota) return null;
    const lease = await this.leaseFor(client);
    lease.lastUsedAt = Date.now();
    if (!lease.busy && lease.waiting.length === 0 && lease.served + amount <= lease.promised) {
      lease.served += amount;
      this.promiseAhead(lease);
      return this.report(lease);
    }
    return new Promise<Taken | null>((done, fail) => {
      lease.waiting.push({ amount, done, fail });
      void this.pump(lease);
    });
  }

  private report(lease: Lease): Taken {
    const taken = { before: lease.reportedTotal, total: lease.lastTotal };
    lease.reportedTotal = lease.lastTotal;
    return taken;
  }

  /** Gives back names counted for a screening that failed: the client pays only for answers. */
  giveBack(client: { clientId: string; period: string }, amount: number) {
    const lease = this.leases.get(`${client.clientId}\u0000${client.period}`);
    if (lease && !lease.retired) lease.served = Math.max(0, lease.served - amount);
  }

  /** The client's period usage as answered, exact for this replica's share. */
  answered(clientId: string, period: string): Promise<number> {
    const lease = this.leases.get(`${clientId}\u0000${period}`);
    const ownUnused = lease && !lease.retired ? lease.granted - lease.served : 0;
    return this.repository.answered(clientId, period, this.holder, ownUnused);
  }

  /**
   * This client's lease for the period. One lease row per holder, so a lease being given back
   * (a changed quota, idle, period end) is awaited before a new one starts: the two must never
   * add to the same row. Checking and creating happen without an await between them.
   */
  private async leaseFor(client: { clientId: string; period: string; periodEnd: string; quota: number }) {
    const key = `${client.clientId}\u0000${client.period}`;
    for (;;) {
      const lease = this.leases.get(key);
      // A request still carrying a quota the lease already replaced is judged by the newer one:
      // otherwise requests of the old and the new quota would retire each other's leases in turn.
      if (lease && (lease.quota === client.quota || this.replaced.get(key)?.has(client.quota))) return lease;
      // A changed quota (an upgrade or downgrade) starts a new lease: blocks were sized for the old one.
      if (lease) {
        const replaced = this.replaced.get(key) ?? new Set<number>();
        replaced.add(lease.quota);
        replaced.delete(client.quota);
        this.replaced.set(key, replaced);
        void this.retire(lease);
      }
      const closing = this.closing.get(key);
      if (closing) {
        await closing;
        continue;
      }
      const fresh: Lease = {
        key,
        clientId: client.clientId,
        period: client.period,
        periodEnd: Date.parse(client.periodEnd),
        quota: client.quota,
        holder: this.holder,
        granted: 0,
        served: 0,
        promised: 0,
        lastTotal: 0,
        reportedTotal: 0,
        waiting: [],
        busy: false,
        retired: false,
        lastUsedAt: Date.now(),
        rate: 0,
        servedAtLastTick: 0,
        promising: undefined,
      };
      this.leases.set(key, fresh);
      return fresh;
    }
  }

  /** Serves the waiting requests in arrival order, taking blocks and promises as they need them. */
  private async pump(lease: Lease): Promise<void> {
    if (lease.busy) return;
    lease.busy = true;
    try {
      while (lease.waiting.length > 0) {
        if (lease.retired) {
          this.redispatch(lease);
          break;
        }
        const head = lease.waiting[0]!;
        try {
          const fits = await this.makeRoom(lease, head.amount);
          lease.waiting.shift();
          if (!fits) {
            head.done(null);
            continue;
          }
          lease.served += head.amount;
          head.done(this.report(lease));
        } catch (error) {
          // The database failed: nobody waiting can be judged now.
          for (const w of lease.waiting.splice(0)) w.fail(error);
        }
      }
    } finally {
      lease.busy = false;
    }
    this.promiseAhead(lease);
  }

  /** Requests left waiting on a lease being given back (a quota change) are taken again under a new one. */
  private redispatch(lease: Lease) {
    const client = { ...lease, periodEnd: new Date(lease.periodEnd).toISOString() };
    for (const w of lease.waiting.splice(0)) this.take(client, w.amount).then(w.done, w.fail);
  }

  /** Makes `amount` names answerable under this lease (block, then promise); false: they do not fit the quota. */
  private async makeRoom(lease: Lease, amount: number): Promise<boolean> {
    await lease.promising;
    const unused = lease.granted - lease.served;
    if (unused < amount) {
      const queued = lease.waiting.reduce((n, w) => n + w.amount, 0);
      const need = amount - unused;
      let grant = await this.grant(lease, Math.max(need, queued - unused), need);
      if (!grant && queued - unused > need) grant = await this.grant(lease, need, need, 0);
      if (!grant && (await this.reclaimed())) grant = await this.grant(lease, need, need, 0);
      if (!grant) return false;
    }
    if (lease.served + amount > lease.promised) await this.promise(lease, lease.served + amount + this.ahead(lease));
    return lease.served + amount <= lease.promised;
  }

  private async grant(lease: Lease, want: number, need: number, maxExtra?: number): Promise<boolean> {
    const extra = maxExtra ?? Math.min(this.policy.maxExtra, Math.max(16, Math.ceil(lease.rate * 10)));
    const promiseTo = Math.min(need + this.ahead(lease), want);
    const grant = await this.repository.grant(lease, want, lease.quota, {
      maxExtra: extra,
      fraction: this.policy.fraction,
      // A delta, never negative: a promise only ever rises.
      promise: Math.max(0, lease.served + promiseTo - lease.promised),
      ttlSeconds: this.policy.ttlSeconds,
    });
    if (!grant) return false;
    if (grant.granted === grant.block && lease.granted > 0) {
      // Our previous row had expired and was reclaimed: what we answered under it stays counted
      // (it was promised), and this block starts a new row.
      lease.served = 0;
    }
    lease.granted = grant.granted;
    lease.promised = grant.promised;
    lease.lastTotal = grant.used;
    // Thresholds are judged on the blocks this replica took, not on what other replicas took before.
    lease.reportedTotal = Math.max(lease.reportedTotal, grant.used - grant.block);
    return true;
  }

  /** Writes a higher promise; a lease found reclaimed is emptied so the next request takes a new block. */
  private async promise(lease: Lease, to: number): Promise<void> {
    const target = Math.min(lease.granted, to);
    if (target <= lease.promised) return;
    const alive = await this.repository.promise(lease, target, this.policy.ttlSeconds);
    if (alive) lease.promised = Math.max(lease.promised, target);
    else this.reset(lease);
  }

  /** Keeps the promise ahead of use without making a request wait for it. */
  private promiseAhead(lease: Lease) {
    if (lease.promising || lease.retired) return;
    const ahead = this.ahead(lease);
    if (lease.promised - lease.served > ahead / 2 || lease.promised >= lease.granted) return;
    lease.promising = this.promise(lease, lease.served + ahead)
      .catch((error: unknown) => this.logger.warn(`quota lease promise failed: ${message(error)}`))
      .finally(() => (lease.promising = undefined));
  }

  /** ~promiseAheadMs of this client's traffic on this replica, at least one name. */
  private ahead(lease: Lease) {
    return Math.max(1, Math.ceil((lease.rate * this.policy.promiseAheadMs) / 1000));
  }

  private reset(lease: Lease) {
    lease.granted = 0;
    lease.served = 0;
    lease.promised = 0;
  }

  private async reclaimed(): Promise<boolean> {
    return (await this.repository.reclaimExpired()).length > 0;
  }

  private retire(lease: Lease): Promise<void> {
    if (lease.retired) return this.closing.get(lease.key) ?? Promise.resolve();
    lease.retired = true;
    if (this.leases.get(lease.key) === lease) this.leases.delete(lease.key);
    const done = (async () => {
      // Let requests already being served under it finish counting first.
      while (lease.busy) await new Promise((r) => setTimeout(r, 5));
      await lease.promising;
      this.redispatch(lease);
      if (lease.granted === 0) return;
      try {
        await this.repository.giveBack(lease, lease.served);
      } catch (error) {
        // It will expire and be reclaimed (its promised part kept): nothing is counted twice.
        this.logger.warn(`quota lease of ${lease.clientId} not given back: ${message(error)}`);
      }
    })().finally(() => {
      if (this.closing.get(lease.key) === done) this.closing.delete(lease.key);
    });
    this.closing.set(lease.key, done);
    return done;
  }

  /** Renews live leases, gives back idle and ended ones, reclaims expired ones from dead replicas. */
  private async tick(): Promise<void> {
    const now = Date.now();
    const seconds = this.policy.renewMs / 1000;
    for (const lease of [...this.leases.values()]) {
      const fresh = (lease.served - lease.servedAtLastTick) / seconds;
      lease.servedAtLastTick = lease.served;
      lease.rate = lease.rate === 0 ? fresh : lease.rate * 0.5 + fresh * 0.5;
      if (now - lease.lastUsedAt > this.policy.idleMs || now >= lease.periodEnd) {
        await this.retire(lease);
        this.replaced.delete(lease.key);
        continue;
      }
      if (lease.granted === 0 || lease.busy) continue;
      try {
        if (!(await this.repository.promise(lease, lease.promised, this.policy.ttlSeconds))) this.reset(lease);
      } catch (error) {
        this.logger.warn(`quota lease of ${lease.clientId} not renewed: ${message(error)}`);
      }
    }
    await this.repository.reclaimExpired().catch((error: unknown) => {
      this.logger.warn(`expired quota leases not reclaimed: ${message(error)}`);
    });
  }
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
