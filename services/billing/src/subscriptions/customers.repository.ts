import { Injectable } from '@nestjs/common';
import type { SubscriptionStatus, Tier } from '@vigil/proto';
import { Database, type Queryable } from '@vigil/platform';
import type { ProviderKind } from '../payments/payment-provider.js';

export type Customer = {
  client_id: string;
  email: string;
  user_id: string | null;
  tier: Tier;
  subscription_status: SubscriptionStatus;
  provider: ProviderKind;
  provider_customer_id: string | null;
  provider_subscription_id: string | null;
  period_start: Date;
  period_end: Date;
  deleted: boolean;
  updated_at: Date;
};

export type NewCustomer = Pick<Customer, 'client_id' | 'email' | 'user_id' | 'tier' | 'provider' | 'provider_customer_id' | 'provider_subscription_id' | 'period_start' | 'period_end'>;

/** Who pays for which client, through which provider, for which period. */
@Injectable()
export class CustomersRepository {
  constructor(private readonly db: Database) {}

  async byClientId(clientId: string, q: Queryable = this.db): Promise<Customer | undefined> {
    return (await q.query<Customer>(`SELECT * FROM customers WHERE client_id = $1`, [clientId]))[0];
  }

  /** The customer row locked until the transaction ends: one upgrade at a time per client. */
  async lockByClientId(clientId: string, q: Queryable): Promise<Customer | undefined> {
    return (await q.query<Customer>(`SELECT * FROM customers WHERE client_id = $1 FOR UPDATE`, [clientId]))[0];
  }

  async byEmail(email: string, q: Queryable = this.db): Promise<Customer | undefined> {
    return (await q.query<Customer>(`SELECT * FROM customers WHERE email = $1`, [email]))[0];
  }

  /** The customer a provider event is about: by subscription first, then by provider customer. */
  async byProviderRefs(subscriptionRef: string | null, customerRef: string | null, q: Queryable = this.db): Promise<Customer | undefined> {
    const rows = await q.query<Customer>(
      `SELECT * FROM customers WHERE ($1::text IS NOT NULL AND provider_subscription_id = $1) OR ($2::text IS NOT NULL AND provider_customer_id = $2)
       ORDER BY (provider_subscription_id = $1) DESC NULLS LAST LIMIT 1 FOR UPDATE`,
      [subscriptionRef, customerRef],
    );
    return rows[0];
  }

  async all(q: Queryable = this.db): Promise<Customer[]> {
    return q.query<Customer>(`SELECT * FROM customers WHERE NOT deleted ORDER BY created_at`);
  }

  /** A completed checkout: a new customer, or a returning one starting a new subscription. */
  async upsertActive(customer: NewCustomer, at: Date, q: Queryable = this.db): Promise<void> {
    await q.query(
      `INSERT INTO customers (client_id, email, user_id, tier, subscription_status, provider, provider_customer_id, provider_subscription_id, period_start, period_end, status_event_at)
       VALUES ($1, $2, $3, $4, 'active', $5, $6, $7, $8, $9, $10)
       ON CONFLICT (client_id) DO UPDATE SET
         email = EXCLUDED.email, user_id = coalesce(EXCLUDED.user_id, customers.user_id), tier = EXCLUDED.tier,
         subscription_status = 'active', provider = EXCLUDED.provider,
         provider_customer_id = coalesce(EXCLUDED.provider_customer_id, customers.provider_customer_id),
         provider_subscription_id = coalesce(EXCLUDED.provider_subscription_id, customers.provider_subscription_id),
         period_start = EXCLUDED.period_start, period_end = EXCLUDED.period_end, deleted = false,
         status_event_at = greatest(customers.status_event_at, EXCLUDED.status_event_at), updated_at = now()`,
      [
        customer.client_id,
        customer.email,
        customer.user_id,
        customer.tier,
        customer.provider,
        customer.provider_customer_id,
        customer.provider_subscription_id,
        customer.period_start,
        customer.period_end,
        at,
      ],
    );
  }

  /**
   * Sets the status only if `at` is not older than the last status the provider told us:
   * webhooks arrive in any order. Answers whether it changed anything.
   */
  async setStatus(clientId: string, status: SubscriptionStatus, at: Date, q: Queryable = this.db): Promise<boolean> {
    const rows = await q.query(
      `UPDATE customers SET subscription_status = $2, status_event_at = $3, updated_at = now()
       WHERE client_id = $1 AND status_event_at <= $3 RETURNING client_id`,
      [clientId, status, at],
    );
    return rows.length > 0;
  }

  async setPeriod(clientId: string, start: Date, end: Date, q: Queryable = this.db): Promise<void> {
    await q.query(`UPDATE customers SET period_start = $2, period_end = $3, updated_at = now() WHERE client_id = $1 AND period_end <= $3`, [clientId, start, end]);
  }

  async setTier(clientId: string, tier: Tier, q: Queryable = this.db): Promise<void> {
    await q.query(`UPDATE customers SET tier = $2, updated_at = now() WHERE client_id = $1`, [clientId, tier]);
  }

  async markDeleted(clientId: string, q: Queryable = this.db): Promise<void> {
    await q.query(`UPDATE customers SET deleted = true, updated_at = now() WHERE client_id = $1`, [clientId]);
  }
}
