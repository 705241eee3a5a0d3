import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { QuotaLeaseRef } from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';
import { LEASE_ANSWERS, type LeaseAnswers } from './lease-answers.js';
import { QuotaLeasesRepository, SETTLE_GRACE_SECONDS, type Grant } from './quota-leases.repository.js';

/** How a lease behaves; the clocks come from the config (tests shorten them). */
export type LeasePolicy = {
  /** A lease not renewed for this long expires; past the settle grace any replica settles it (its holder died). */
  ttlSeconds: number;
  /** How often a holder renews its leases and sweeps expired ones. */
  renewMs: number;
  /** A lease unused for this long is settled, so an idle replica does not sit on quota. */
  idleMs: number;
  /** A block takes at most this share of what remains (1/fraction): large far from the limit, down to the request near it. */
  fraction: number;
  /** A block never exceeds this many names beyond the request, nor ~10 s of this client's traffic here. */
  maxExtra: number;
};

const BLOCK_POLICY = { fraction: 16, maxExtra: 10_000 };

/** Expired leases settled per sweep. */
const SWEEP_BATCH = 200;

/** How a request counted under a lease ended, for its lease's settlement. */
export type Outcome =
  /** Screening answered it (logged under the lease), or its names were charged for good (a bulk job). */
  | 'answered'
  /** Definitely not performed (screening refused it before logging): its names are free again. */
  | 'refused'
  /** No telling (a timeout, a lost connection): the lease's logs will say, once its answer-by time passed. */
  | 'unknown';

type Waiting = {
  amount: number;
  windowMs: number;
  done: (taken: Taken | null) => void;
  fail: (error: unknown) => void;
};

/** One lease row as this holder uses it: what is in flight under it decides when it can be settled. */
type Row = {
  readonly leaseId: string;
  /** Requests counted under the row that have not ended yet. */
  inflight: number;
  /** Some request under it ended without telling whether screening logged it. */
  uncertain: boolean;
  /** The latest answer-by time handed out under it (database clock, ms). */
  lastAnswerBy: number;
};

/** One client's lease for one period on this replica. All counts are for the current lease row. */
type Lease = {
  readonly key: string;
  readonly clientId: string;
  readonly period: string;
  readonly periodEnd: number;
  readonly quota: number;
  readonly holder: string;
  /** The lease row requests are counted under now (none before the first block). */
  row: Row | undefined;
  /** Names taken from the counter under the row. */
  granted: number;
  /** Names counted against the row: answered, in flight, or of unknown outcome. */
  served: number;
  /** When the row expires, database clock (ms). */
  expiresAt: number;
  /** Database clock minus this process's clock (ms), measured at the last grant or renewal. */
  clockOffset: number;
  /** The counter's total as last seen, to tell the 80%/100% crossings. */
  lastTotal: number;
  /** The total last reported to a caller: each change is reported once. */
  reportedTotal: number;
  waiting: Waiting[];
  busy: boolean;
  retired: boolean;
  lastUsedAt: number;
  /** Names served per second, smoothed: sizes blocks. */
  rate: number;
  servedAtLastTick: number;
};

/** A request's place under a lease: what it carries to screening, and what to report when it ends. */
export type Ticket = {
  readonly quotaLease: QuotaLeaseRef;
  readonly amount: number;
  readonly lease: Lease;
  readonly row: Row;
  ended: boolean;
};

export type Taken = { total: number; before: number; ticket: Ticket };

/**
 * Quota leases (after Google's quota servers and Doorman): each gateway replica takes blocks of a
 * client's period quota from Postgres in one atomic statement and counts requests against them in
 * memory, so a screen does not wait on a quota statement. The counter in Postgres includes every
 * block handed out, so the quota is never overshot however many replicas serve a client. Near the
 * limit blocks shrink to the request itself, which is exactly the old per-request reservation.
 *
 * Every screen carries its lease's id and an answer-by time to screening, which logs it under the
 * lease only before that time (by the database's clock) and answers only what it logged. A lease is
 * settled to what was answered under it: `fixed` names (bulk jobs) plus the screens screening
 * logged under its id, the rest of the block going back to the counter. So the monthly usage is
 * exactly the screens answered, whichever replica died when:
 * - given back (shutdown, idle, period end, quota change): settled once every request under it
 *   ended, and, if one ended without an answer, after its answer-by time and the settle grace;
 * - a killed holder's lease expires unrenewed and any replica settles it after the grace;
 * - a retry of the same operation is logged once (under the lease of whichever attempt screening
 *   logged), so it is charged once; an idempotent replay never reaches screening.
 */
@Injectable()
export class QuotaLeases implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(QuotaLeases.name);
  readonly holder = `${randomUUID()}`;
  private readonly leases = new Map<string, Lease>();
  /** Leases being settled (each its own row: a new lease for the same client does not wait for them). */
  private readonly closing = new Set<Promise<void>>();
  /** Quotas a client's lease was replaced for (by key), so stale requests do not bring them back. */
  private readonly replaced = new Map<string, Set<number>>();
  private timer: NodeJS.Timeout | undefined;
  private readonly policy: LeasePolicy;
  /** Called when settlement changed a client's counter (usage copies trail it). */
  private readonly settledListeners: Array<(clientId: string, period: string) => void> = [];
  private sweeping: Promise<void> | undefined;

  constructor(
    private readonly repository: QuotaLeasesRepository,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    @Inject(LEASE_ANSWERS) private readonly answers: LeaseAnswers,
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

  /** Settles every lease (SIGTERM, via Nest's shutdown hooks), before the pools close. */
  async beforeApplicationShutdown() {
    clearInterval(this.timer);
    await Promise.all([...this.leases.values()].map((lease) => this.retire(lease)));
    await Promise.all([...this.closing]);
    await this.sweeping;
  }

  onSettled(listener: (clientId: string, period: string) => void) {
    this.settledListeners.push(listener);
  }

  /**
   * Counts `amount` names for the client's period, or answers null: they would overshoot the quota.
   * `total` is the counter after them as far as this replica knows (for the threshold events).
   * `windowMs`: how long the request may take; its answer-by time is no later than that from now.
   * Every taken ticket must be ended with `end`.
   */
  async take(
    client: { clientId: string; period: string; periodEnd: string; quota: number },
    amount: number,
    windowMs = this.policy.ttlSeconds * 1000,
  ): Promise<Taken | null> {
    if (amount > client.quota) return null;
    const lease = this.leaseFor(client);
    lease.lastUsedAt = Date.now();
    if (!lease.busy && lease.waiting.length === 0 && this.fits(lease, amount))
      return this.serve(lease, amount, windowMs);
    return new Promise<Taken | null>((done, fail) => {
      lease.waiting.push({ amount, windowMs, done, fail });
      void this.pump(lease);
    });
  }

  /** Reports how a request counted under `ticket` ended; only the first report counts. */
  end(ticket: Ticket, outcome: Outcome) {
    if (ticket.ended) return;
    ticket.ended = true;
    const { lease, row } = ticket;
    row.inflight -= 1;
    if (outcome === 'unknown') row.uncertain = true;
    // A refused request frees its names under the row it was counted under; under a row since
    // replaced there is nothing to free (that row is settled to its logs).
    if (outcome === 'refused' && lease.row === row && !lease.retired)
      lease.served = Math.max(0, lease.served - ticket.amount);
  }

  /** The client's period usage as answered, exact for this replica's share and for settled leases. */
  answered(clientId: string, period: string): Promise<number> {
    const lease = this.leases.get(`${clientId}\u0000${period}`);
    const live = lease && !lease.retired ? lease : undefined;
    return this.repository.answered(clientId, period, live?.row?.leaseId, live ? live.granted - live.served : 0);
  }

  /** Room for `amount` under the current row, with enough of its life left to be worth using. */
  private fits(lease: Lease, amount: number): boolean {
    return lease.row !== undefined && lease.served + amount <= lease.granted && this.lifeLeft(lease) >= this.minLife();
  }

  /** Ms until the row expires, by this process's estimate of the database clock. */
  private lifeLeft(lease: Lease) {
    return lease.expiresAt - (Date.now() + lease.clockOffset);
  }

  /** A request is not started under a row about to expire: it would be refused, or hold its settlement up. */
  private minLife() {
    return Math.min(1_000, this.policy.ttlSeconds * 250);
  }

  private serve(lease: Lease, amount: number, windowMs: number): Taken {
    const row = lease.row!;
    lease.served += amount;
    row.inflight += 1;
    const answerBy = Math.min(lease.expiresAt, Date.now() + lease.clockOffset + windowMs);
    row.lastAnswerBy = Math.max(row.lastAnswerBy, answerBy);
    const ticket: Ticket = {
      quotaLease: { id: row.leaseId, answerBy: new Date(answerBy).toISOString() },
      amount,
      lease,
      row,
      ended: false,
    };
    const taken = { before: lease.reportedTotal, total: lease.lastTotal, ticket };
    lease.reportedTotal = lease.lastTotal;
    return taken;
  }

  /**
   * This client's lease for the period; one being settled (a changed quota, idle, period end) has
   * a row of its own, so a new one starts at once. Checking and creating happen without an await between them.
   */
  private leaseFor(client: { clientId: string; period: string; periodEnd: string; quota: number }) {
    const key = `${client.clientId}\u0000${client.period}`;
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
    const fresh: Lease = {
      key,
      clientId: client.clientId,
      period: client.period,
      periodEnd: Date.parse(client.periodEnd),
      quota: client.quota,
      holder: this.holder,
      row: undefined,
      granted: 0,
      served: 0,
      expiresAt: 0,
      clockOffset: 0,
      lastTotal: 0,
      reportedTotal: 0,
      waiting: [],
      busy: false,
      retired: false,
      lastUsedAt: Date.now(),
      rate: 0,
      servedAtLastTick: 0,
    };
    this.leases.set(key, fresh);
    return fresh;
  }

  /** Serves the waiting requests in arrival order, taking blocks as they need them. */
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
          head.done(fits ? this.serve(lease, head.amount, head.windowMs) : null);
        } catch (error) {
          // The database failed: nobody waiting can be judged now.
          for (const w of lease.waiting.splice(0)) w.fail(error);
        }
      }
    } finally {
      lease.busy = false;
    }
  }

  /** Requests left waiting on a lease being settled (a quota change) are taken again under a new one. */
  private redispatch(lease: Lease) {
    const client = { ...lease, periodEnd: new Date(lease.periodEnd).toISOString() };
    for (const w of lease.waiting.splice(0)) this.take(client, w.amount, w.windowMs).then(w.done, w.fail);
  }

  /** Makes `amount` names answerable under a live row; false: they do not fit the quota. */
  private async makeRoom(lease: Lease, amount: number): Promise<boolean> {
    if (lease.row && this.lifeLeft(lease) < this.minLife()) await this.renew(lease);
    let swept = false;
    // A grant can land in a new row (the old one expired), sized for what the old one lacked:
    // then another round takes what the new one lacks.
    for (let round = 0; round < 3; round++) {
      const unused = lease.row ? lease.granted - lease.served : 0;
      if (lease.row && unused >= amount) return true;
      const need = amount - unused;
      const queued = lease.waiting.reduce((n, w) => n + w.amount, 0);
      if (await this.grant(lease, Math.max(need, queued - unused))) continue;
      if (queued - unused > need && (await this.grant(lease, need, 0))) continue;
      // Blocks of dead replicas are withheld until settled: settle what is due and try once more.
      if (!swept) {
        swept = true;
        if ((await this.settleDue()) > 0) continue;
      }
      return false;
    }
    return lease.row !== undefined && lease.granted - lease.served >= amount;
  }

  /** Takes a block of at least `want` names; false: it does not fit the quota. */
  private async grant(lease: Lease, want: number, maxExtra?: number): Promise<boolean> {
    const extra = maxExtra ?? Math.min(this.policy.maxExtra, Math.max(16, Math.ceil(lease.rate * 10)));
    const sentAt = Date.now();
    const grant: Grant = await this.repository.grant(
      { clientId: lease.clientId, period: lease.period, holder: lease.holder, leaseId: lease.row?.leaseId },
      Math.max(want, 1),
      lease.quota,
      { maxExtra: extra, fraction: this.policy.fraction, ttlSeconds: this.policy.ttlSeconds },
    );
    if (!grant) return false;
    if (grant.leaseId !== lease.row?.leaseId) {
      // A new row (the first, or the previous one expired): what was counted under the old row
      // stays with it and is settled to its logs; this one starts empty.
      lease.row = { leaseId: grant.leaseId, inflight: 0, uncertain: false, lastAnswerBy: 0 };
      lease.served = 0;
    }
    lease.granted = grant.granted;
    this.clock(lease, grant, sentAt);
    lease.lastTotal = grant.used;
    // Thresholds are judged on the blocks this replica took, not on what other replicas took before.
    lease.reportedTotal = Math.max(lease.reportedTotal, grant.used - grant.block);
    return true;
  }

  private clock(lease: Lease, row: { expiresAt: Date; dbNow: Date }, sentAt: number) {
    lease.expiresAt = new Date(row.expiresAt).getTime();
    // The statement ran between sending and now: its clock is compared with the midpoint.
    lease.clockOffset = new Date(row.dbNow).getTime() - (sentAt + Date.now()) / 2;
  }

  /** Renews the current row; one found expired is dropped, so the next request takes a new row. */
  private async renew(lease: Lease): Promise<void> {
    const row = lease.row;
    if (!row) return;
    const sentAt = Date.now();
    const renewed = await this.repository.renew(row.leaseId, lease.served, this.policy.ttlSeconds);
    if (lease.row !== row) return;
    if (renewed) this.clock(lease, renewed, sentAt);
    else {
      lease.row = undefined;
      lease.granted = 0;
      lease.served = 0;
    }
  }

  /**
   * Stops serving under a lease and settles it: once every request under it ended (and, if one
   * ended unknown, once its answer-by time and the grace passed), to the screens screening logged
   * under it. If that cannot be done now, the row expires unrenewed and a sweep settles it.
   */
  private retire(lease: Lease): Promise<void> {
    if (lease.retired) return Promise.resolve();
    lease.retired = true;
    if (this.leases.get(lease.key) === lease) this.leases.delete(lease.key);
    const done = (async () => {
      // Let requests already being counted under it finish counting first.
      while (lease.busy) await sleep(5);
      this.redispatch(lease);
      const row = lease.row;
      if (!row) return;
      // Nothing can be logged under the row past its last answer-by time (and the grace): that
      // bounds the wait for requests still in flight, or that ended without telling.
      const safeIn = () => row.lastAnswerBy + SETTLE_GRACE_SECONDS * 1000 - (Date.now() + lease.clockOffset);
      while (row.inflight > 0 && safeIn() > 0) await sleep(Math.min(10, safeIn()));
      if (row.inflight > 0 || row.uncertain) await sleep(Math.max(0, safeIn()));
      try {
        const answers = await this.answers.count([row.leaseId]);
        this.settled(await this.repository.settle(answers, false));
      } catch (error) {
        this.logger.warn(`quota lease of ${lease.clientId} not settled yet (a sweep will): ${message(error)}`);
      }
    })().finally(() => this.closing.delete(done));
    this.closing.add(done);
    return done;
  }

  /** Settles the leases whose holders stopped renewing them, once past the grace; how many clients' counters it changed. */
  settleDue(): Promise<number> {
    const run = (async () => {
      const due = await this.repository.settleable(SWEEP_BATCH);
      if (due.length === 0) return 0;
      const changed = await this.repository.settle(await this.answers.count(due), true);
      this.settled(changed);
      return changed.length;
    })();
    const tracked = run.then(
      () => undefined,
      () => undefined,
    );
    this.sweeping = tracked;
    return run;
  }

  private settled(changed: Array<{ clientId: string; period: string; overcharge: number }>) {
    for (const { clientId, period, overcharge } of changed) {
      // More answers than the block: a request outlived its count. Charged the block, not more.
      if (overcharge > 0)
        this.logger.error(`quota lease of ${clientId} settled with ${overcharge} answers beyond its block`);
      for (const listener of this.settledListeners) listener(clientId, period);
    }
  }

  /** Renews live leases, settles idle and ended ones, and those of dead replicas. */
  private async tick(): Promise<void> {
    const now = Date.now();
    const seconds = this.policy.renewMs / 1000;
    for (const lease of [...this.leases.values()]) {
      const fresh = (lease.served - lease.servedAtLastTick) / seconds;
      lease.servedAtLastTick = lease.served;
      lease.rate = lease.rate === 0 ? fresh : lease.rate * 0.5 + fresh * 0.5;
      if (now - lease.lastUsedAt > this.policy.idleMs || now >= lease.periodEnd) {
        void this.retire(lease);
        this.replaced.delete(lease.key);
        continue;
      }
      if (!lease.row || lease.busy) continue;
      await this.renew(lease).catch((error: unknown) => {
        this.logger.warn(`quota lease of ${lease.clientId} not renewed: ${message(error)}`);
      });
    }
    await this.settleDue().catch((error: unknown) => {
      this.logger.warn(`expired quota leases not settled yet: ${message(error)}`);
    });
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
