import { Injectable } from '@nestjs/common';
import { Database } from '../infra/database.js';

type Waiting = { amount: number; quota: number; done: (used: number | null) => void; fail: (error: unknown) => void };

const RESERVE = `INSERT INTO quota_usage (client_id, period, used) VALUES ($1, $2, $3)
  ON CONFLICT (client_id, period) DO UPDATE SET used = quota_usage.used + EXCLUDED.used, updated_at = now()
    WHERE quota_usage.used + EXCLUDED.used <= $4
  RETURNING used`;

/**
 * The usage counters: one row per client and usage period (keyed by the period's start).
 *
 * Every screen counts here before it is answered, so this is the gateway's hottest statement.
 * Two things keep it cheap without giving up exactness:
 * - the counters' own pool (`Database.counters`) with synchronous commit off: a counter update
 *   does not wait for the WAL to reach the disk. A Postgres crash can forget the last fraction
 *   of a second of counted calls (the WAL writer flushes every 200 ms), which only ever gives
 *   that client a few calls free; it can never refuse one wrongly or double-count.
 * - concurrent reservations of one client on this replica share a statement: while one is in
 *   flight the next ones queue, then go together as one conditional upsert of their sum. If the
 *   sum does not fit, they are tried one by one, so a request that fits is never refused because
 *   another in its batch did not.
 */
@Injectable()
export class QuotasRepository {
  private readonly waiting = new Map<string, Waiting[]>();
  private readonly writing = new Set<string>();

  constructor(private readonly db: Database) {}

  /**
   * Adds `amount` only if the total stays within `quota`, in one statement, so concurrent
   * requests on every replica can never overshoot. Returns the total after this request's
   * amount (as if it had been counted alone); null: it would overshoot.
   */
  reserve(clientId: string, period: string, amount: number, quota: number): Promise<number | null> {
    if (amount > quota) return Promise.resolve(null);
    const key = `${clientId}\u0000${period}`;
    return new Promise((done, fail) => {
      const queue = this.waiting.get(key);
      if (queue) queue.push({ amount, quota, done, fail });
      else this.waiting.set(key, [{ amount, quota, done, fail }]);
      if (!this.writing.has(key)) void this.drain(key, clientId, period);
    });
  }

  private async drain(key: string, clientId: string, period: string): Promise<void> {
    this.writing.add(key);
    try {
      for (let batch = this.waiting.get(key); batch && batch.length > 0; batch = this.waiting.get(key)) {
        this.waiting.delete(key);
        // A tier change can arrive mid-batch: only requests judged against the same quota share a statement.
        const quota = batch[0]!.quota;
        const together = batch.filter((w) => w.quota === quota);
        const later = batch.filter((w) => w.quota !== quota);
        if (later.length > 0) this.waiting.set(key, [...later, ...(this.waiting.get(key) ?? [])]);
        await this.settle(clientId, period, quota, together);
      }
    } finally {
      this.writing.delete(key);
    }
  }

  private async settle(clientId: string, period: string, quota: number, batch: Waiting[]): Promise<void> {
    try {
      const total = batch.reduce((n, w) => n + w.amount, 0);
      const used = await this.add(clientId, period, total, quota);
      if (used !== null) {
        // Hand out the sum in arrival order: each request sees the total its own amount reached.
        let before = used - total;
        for (const w of batch) w.done((before += w.amount));
        return;
      }
      if (batch.length === 1) return batch[0]!.done(null);
      for (const w of batch) w.done(await this.add(clientId, period, w.amount, quota));
    } catch (error) {
      for (const w of batch) w.fail(error);
    }
  }

  private async add(clientId: string, period: string, amount: number, quota: number): Promise<number | null> {
    if (amount > quota) return null;
    const { rows } = await this.db.counters.query<{ used: number }>({
      name: 'quota-reserve',
      text: RESERVE,
      values: [clientId, period, amount, quota],
    });
    return rows[0]?.used ?? null;
  }

  async release(clientId: string, period: string, amount: number): Promise<void> {
    await this.db.counters.query(
      `UPDATE quota_usage SET used = GREATEST(used - $3, 0), updated_at = now() WHERE client_id = $1 AND period = $2`,
      [clientId, period, amount],
    );
  }

  async used(clientId: string, period: string): Promise<number> {
    const { rows } = await this.db.query<{ used: number }>(
      `SELECT used FROM quota_usage WHERE client_id = $1 AND period = $2`,
      [clientId, period],
    );
    return rows[0]?.used ?? 0;
  }
}
