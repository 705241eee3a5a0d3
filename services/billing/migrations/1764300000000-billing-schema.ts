import type { MigrationInterface, QueryRunner } from 'typeorm';

// Billing's own state. Clients, keys, tiers and quotas stay in auth; billing keeps who pays,
// through which provider, for which period, and what it already did about it.
export class BillingSchema1764300000000 implements MigrationInterface {
  name = 'BillingSchema1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE customers (
        client_id uuid PRIMARY KEY,
        email text NOT NULL UNIQUE,
        user_id uuid,
        tier text NOT NULL,
        subscription_status text NOT NULL,
        provider text NOT NULL,
        provider_customer_id text UNIQUE,
        provider_subscription_id text UNIQUE,
        period_start timestamptz NOT NULL,
        period_end timestamptz NOT NULL,
        deleted boolean NOT NULL DEFAULT false,
        -- When the provider said what the status is: an older event never overwrites a newer one.
        status_event_at timestamptz NOT NULL DEFAULT to_timestamp(0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE checkout_sessions (
        id text PRIMARY KEY,
        provider text NOT NULL,
        user_id uuid NOT NULL,
        email text NOT NULL,
        tier text NOT NULL,
        amount_usd integer NOT NULL,
        status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'complete', 'expired')),
        client_id uuid,
        -- The new client's key until the success page has shown it once; then NULL for good.
        pending_api_key text,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz
      )`);
    await q.query(`CREATE INDEX checkout_sessions_client ON checkout_sessions (client_id) WHERE pending_api_key IS NOT NULL`);
    await q.query(`
      CREATE TABLE processed_provider_events (
        event_id text PRIMARY KEY,
        type text NOT NULL,
        processed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE billing_events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        client_id uuid NOT NULL,
        period text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('quota_warning', 'quota_exceeded', 'payment_failed', 'subscription_cancelled', 'payment_recovery_reminder')),
        client_name text NOT NULL,
        usage integer,
        quota integer,
        percentage numeric(6, 1),
        notified boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        -- Never the same warning twice in a period, whichever replica or schedule run notices.
        UNIQUE (client_id, period, kind)
      )`);
    await q.query(`CREATE INDEX billing_events_recent ON billing_events (created_at DESC)`);
    await q.query(`
      CREATE TABLE usage_periods (
        client_id uuid NOT NULL,
        period_start timestamptz NOT NULL,
        period_end timestamptz NOT NULL,
        reset_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (client_id, period_start)
      )`);
    await q.query(`
      CREATE TABLE upgrades (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        client_id uuid NOT NULL,
        from_tier text NOT NULL,
        to_tier text NOT NULL,
        prorated_cost_cents integer NOT NULL,
        days_remaining integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE mail_outbox (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        recipient text NOT NULL,
        subject text NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['mail_outbox', 'upgrades', 'usage_periods', 'billing_events', 'processed_provider_events', 'checkout_sessions', 'customers']) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
