import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  subjects,
  type CheckoutSessionReply,
  type ClientByEmailResponse,
  type QuotaCheckResponse,
  type QuotaMonitoringResponse,
  type ResolvedKey,
  type SandboxCheckoutSession,
  type SubscriptionCheckReply,
  type UpgradeOptionsResponse,
  type UpgradePreview,
} from '@vigil/proto';
import { createHash, randomUUID } from 'node:crypto';
import { eventually, startBillingStack, type BillingStack } from './harness.js';

let stack: BillingStack;
beforeAll(async () => {
  stack = await startBillingStack();
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

const userFor = (email: string) => ({ id: randomUUID(), email });
const VISA = '4242 4242 4242 4242';

async function subscribe(email: string, tier: string) {
  const user = userFor(email);
  const checkout = await stack.call<CheckoutSessionReply>(subjects.billing.createCheckout, {
    user,
    tier,
    clientEmail: email,
  });
  await stack.call(subjects.billing.sandboxComplete, { user, sessionId: checkout.sessionId, cardNumber: VISA });
  const { client } = await stack.call<ClientByEmailResponse>(subjects.billing.clientByEmail, { user, email });
  return { user, checkout, client };
}

describe('sandbox checkout', () => {
  it('turns a signed-in user into an active client whose key the gateway accepts', async () => {
    const activated = stack.events(subjects.billing.subscriptionActivated);
    const user = userFor('buyer@example.com');
    const checkout = await stack.call<CheckoutSessionReply>(subjects.billing.createCheckout, {
      user,
      tier: 'small',
      clientEmail: 'Buyer@Example.com',
    });
    expect(checkout.url).toBe(`http://web.test/payment/checkout?session_id=${checkout.sessionId}`);
    await expect(
      stack.call<SandboxCheckoutSession>(subjects.billing.sandboxSession, { user, sessionId: checkout.sessionId }),
    ).resolves.toEqual({
      id: checkout.sessionId,
      tier: 'small',
      clientEmail: 'buyer@example.com',
      amount: 299,
      status: 'open',
    });
    // Until paid, the success page's poll finds nothing.
    expect((await stack.fail(subjects.billing.clientByEmail, { user, email: 'buyer@example.com' })).code).toBe(
      'NOT_FOUND',
    );

    // A declined test card changes nothing; another user's session is not found.
    expect(
      (
        await stack.fail(subjects.billing.sandboxComplete, {
          user,
          sessionId: checkout.sessionId,
          cardNumber: '4000 0000 0000 0002',
        })
      ).code,
    ).toBe('PAYMENT_DECLINED');
    expect(
      (
        await stack.fail(subjects.billing.sandboxComplete, {
          user: userFor('x@example.com'),
          sessionId: checkout.sessionId,
          cardNumber: VISA,
        })
      ).code,
    ).toBe('NOT_FOUND');

    const done = await stack.call<{ redirectUrl: string }>(subjects.billing.sandboxComplete, {
      user,
      sessionId: checkout.sessionId,
      cardNumber: VISA,
    });
    expect(done.redirectUrl).toBe(`http://web.test/payment/success?session_id=${checkout.sessionId}`);
    // Paying again (a double click) is harmless.
    await stack.call(subjects.billing.sandboxComplete, { user, sessionId: checkout.sessionId, cardNumber: VISA });

    // Until the success page shows it, the new key waits in the checkout session, sealed.
    const { rows: pending } = await stack.db.query(`SELECT pending_api_key FROM checkout_sessions WHERE id = $1`, [
      checkout.sessionId,
    ]);
    expect(pending[0].pending_api_key).toMatch(/^enc:v1:/);
    const beforeShown = await stack.dump();

    const first = await stack.call<ClientByEmailResponse>(subjects.billing.clientByEmail, {
      user,
      email: 'buyer@example.com',
    });
    expect(first.client).toMatchObject({
      tier: 'small',
      subscription_status: 'active',
      quota_month: 5_000,
      usage_month: 0,
    });
    expect(first.client.api_key).toMatch(/^[0-9a-f]{64}$/);
    // The key is shown once.
    const second = await stack.call<ClientByEmailResponse>(subjects.billing.clientByEmail, {
      user,
      email: 'buyer@example.com',
    });
    expect(second.client.api_key).toBeUndefined();
    expect(second.client.api_key_prefix).toBe(first.client.api_key!.slice(0, 8));

    // What the gateway's API-key guard sees for this key.
    const keyHash = createHash('sha256').update(first.client.api_key!).digest('hex');
    await expect(stack.call<ResolvedKey>(subjects.clients.resolveKey, { keyHash })).resolves.toMatchObject({
      clientId: first.client.id,
      tier: 'small',
      subscriptionStatus: 'active',
      quotaMonth: 5_000,
      rateLimitPerMinute: 50,
    });
    await expect(stack.call<SubscriptionCheckReply>(subjects.billing.subscription, { user })).resolves.toEqual({
      hasSubscription: true,
      tier: 'small',
      subscription_status: 'active',
    });

    const mail = await stack.mailTo('buyer@example.com');
    expect(mail).toHaveLength(1);
    expect(mail[0]!.body).toContain(first.client.api_key!);
    // At rest the key is nowhere: not in the checkout session (sealed, then erased once shown),
    // not in the outbox (sealed), in no table of billing's schema.
    // No table of billing's schema holds the raw key, before or after it was shown; once shown the session forgets it.
    const afterShown = await stack.dump();
    for (const dump of [beforeShown, afterShown]) {
      expect(dump).toContain(checkout.sessionId);
      expect(dump).not.toContain(first.client.api_key!);
      expect(dump).not.toContain(first.client.api_key!.slice(8));
    }
    const { rows: shown } = await stack.db.query(`SELECT pending_api_key FROM checkout_sessions WHERE id = $1`, [
      checkout.sessionId,
    ]);
    expect(shown[0].pending_api_key).toBeNull();
    const { value: events } = await eventually(
      () => activated,
      (list) => list.length >= 1,
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ client_id: first.client.id, tier: 'small', quota_month: 5_000 });
  });

  it('names the new client after the organisation given at onboarding, not its e-mail address', async () => {
    const named = userFor('treasury@harbour.example');
    const checkout = await stack.call<CheckoutSessionReply>(subjects.billing.createCheckout, {
      user: named,
      tier: 'starter',
      clientEmail: 'treasury@harbour.example',
      clientName: '  Harbour Bank plc ',
    });
    await stack.call(subjects.billing.sandboxComplete, {
      user: named,
      sessionId: checkout.sessionId,
      cardNumber: VISA,
    });
    const { client } = await stack.call<ClientByEmailResponse>(subjects.billing.clientByEmail, {
      user: named,
      email: 'treasury@harbour.example',
    });
    expect(client.client_name).toBe('Harbour Bank plc');

    // An API caller that names none still gets a client, under its address (renamed in Settings).
    const unnamed = userFor('solo@example.com');
    const plain = await stack.call<CheckoutSessionReply>(subjects.billing.createCheckout, {
      user: unnamed,
      tier: 'starter',
      clientEmail: 'solo@example.com',
    });
    await stack.call(subjects.billing.sandboxComplete, { user: unnamed, sessionId: plain.sessionId, cardNumber: VISA });
    const solo = await stack.call<ClientByEmailResponse>(subjects.billing.clientByEmail, {
      user: unnamed,
      email: 'solo@example.com',
    });
    expect(solo.client.client_name).toBe('solo@example.com');
    // A blank name is refused rather than stored.
    expect(
      (
        await stack.fail(subjects.billing.createCheckout, {
          user: userFor('blank@example.com'),
          tier: 'starter',
          clientEmail: 'blank@example.com',
          clientName: '   ',
        })
      ).code,
    ).toBe('VALIDATION_FAILED');
  });

  it("looks up only the caller's own e-mail and validates the tier", async () => {
    const user = userFor('me@example.com');
    expect((await stack.fail(subjects.billing.clientByEmail, { user, email: 'buyer@example.com' })).code).toBe(
      'FORBIDDEN',
    );
    const empty = await stack.fail(subjects.billing.createCheckout, {
      user,
      tier: '  ',
      clientEmail: 'me@example.com',
    });
    expect(empty.code).toBe('VALIDATION_FAILED');
    expect(empty.errors?.[0]).toMatchObject({ pointer: '/tier', detail: 'Tier cannot be empty' });
    expect(
      (await stack.fail(subjects.billing.createCheckout, { user, clientEmail: 'me@example.com' })).errors?.[0]?.detail,
    ).toBe('Valid tier is required');
    expect(
      (await stack.fail(subjects.billing.createCheckout, { user, tier: 'gold', clientEmail: 'me@example.com' })).code,
    ).toBe('INVALID_TIER');
    expect(
      (await stack.fail(subjects.billing.createCheckout, { user, tier: 'small', clientEmail: 'other@example.com' }))
        .code,
    ).toBe('FORBIDDEN');
  });
});

describe('billing portal', () => {
  it('sends a sandbox customer to the account page, and refuses a client without a customer', async () => {
    const { client } = await subscribe('portal@example.com', 'starter');
    await expect(stack.call(subjects.billing.portalSession, { clientId: client.id })).resolves.toEqual({
      url: 'http://web.test/account',
    });
    const missing = await stack.fail(subjects.billing.portalSession, { clientId: randomUUID() });
    expect(missing.code).toBe('CUSTOMER_NOT_FOUND');
    await stack.db.query(`UPDATE customers SET deleted = true WHERE client_id = $1`, [client.id]);
    expect((await stack.fail(subjects.billing.portalSession, { clientId: client.id })).code).toBe('CUSTOMER_DELETED');
    await expect(
      stack.call<SubscriptionCheckReply>(subjects.billing.subscription, {
        user: { id: randomUUID(), email: 'portal@example.com' },
      }),
    ).resolves.toEqual({
      hasSubscription: false,
      tier: null,
      subscription_status: null,
    });
  });
});

describe('upgrades', () => {
  it('charges the documented proration mid-period and raises the quota at once', async () => {
    const { client } = await subscribe('upgrader@example.com', 'starter');
    const tierChanged = stack.events(subjects.billing.tierChanged);
    // Put the customer ten days into a 30-day period.
    const start = new Date(Date.now() - 10 * 86_400_000);
    const end = new Date(start.getTime() + 30 * 86_400_000);
    await stack.db.query(`UPDATE customers SET period_start = $2, period_end = $3 WHERE client_id = $1`, [
      client.id,
      start,
      end,
    ]);

    const { upgradeOptions } = await stack.call<UpgradeOptionsResponse>(subjects.billing.upgradeOptions, {
      clientId: client.id,
    });
    expect(upgradeOptions.map((o) => o.tier)).toEqual(['small', 'medium', 'large']);
    // (299 − 99) × 20 / 30 = 133.33
    expect(upgradeOptions[0]).toEqual({
      tier: 'small',
      tierName: 'Small',
      price: 299,
      proratedCost: 133.33,
      quotaIncrease: 4_000,
      newTotalQuota: 5_000,
      features: { monthlyQuota: 5_000, apiRateLimit: 50, dashboardAccess: false, webSocketAccess: false },
    });
    const preview = await stack.call<UpgradePreview>(subjects.billing.upgradePreview, {
      clientId: client.id,
      newTier: 'medium',
    });
    // (999 − 99) × 20 / 30 = 600
    expect(preview).toEqual({ proratedCost: 600, quotaIncrease: 24_000, newTotalQuota: 25_000, daysRemaining: 20 });

    const upgraded = await stack.call<UpgradePreview & { tier: string }>(subjects.billing.upgrade, {
      clientId: client.id,
      newTier: 'medium',
    });
    expect(upgraded).toMatchObject({ tier: 'medium', proratedCost: 600, newTotalQuota: 25_000, daysRemaining: 20 });
    const { rows } = await stack.authDb.query(`SELECT tier, quota_month FROM clients WHERE id = $1`, [client.id]);
    expect(rows[0]).toEqual({ tier: 'medium', quota_month: 25_000 });
    const { rows: charges } = await stack.db.query(`SELECT prorated_cost_cents FROM upgrades WHERE client_id = $1`, [
      client.id,
    ]);
    expect(charges).toEqual([{ prorated_cost_cents: 60_000 }]);
    const { value: events } = await eventually(
      () => tierChanged,
      (list) => list.length >= 1,
    );
    expect(events[0]).toMatchObject({
      client_id: client.id,
      from_tier: 'starter',
      to_tier: 'medium',
      quota_month: 25_000,
      rate_limit_per_minute: 200,
    });

    for (const [newTier, code] of [
      ['medium', 'ALREADY_ON_TIER'],
      ['small', 'CANNOT_DOWNGRADE'],
      ['platinum', 'INVALID_TIER'],
    ] as const) {
      expect((await stack.fail(subjects.billing.upgrade, { clientId: client.id, newTier })).code).toBe(code);
    }
    expect((await stack.fail(subjects.billing.upgrade, { clientId: client.id, newTier: '' })).errors?.[0]?.detail).toBe(
      'Tier cannot be empty',
    );
    expect((await stack.fail(subjects.billing.upgrade, { clientId: randomUUID(), newTier: 'large' })).code).toBe(
      'CUSTOMER_NOT_FOUND',
    );

    await stack.db.query(`UPDATE customers SET subscription_status = 'payment_failed' WHERE client_id = $1`, [
      client.id,
    ]);
    expect((await stack.fail(subjects.billing.upgrade, { clientId: client.id, newTier: 'large' })).code).toBe(
      'SUBSCRIPTION_INACTIVE',
    );
  });
});

describe('upgrade double click', () => {
  it('charges once when the same upgrade is sent twice at the same time', async () => {
    const { client } = await subscribe('double@example.com', 'starter');
    const results = await Promise.allSettled([
      stack.call(subjects.billing.upgrade, { clientId: client.id, newTier: 'small' }),
      stack.call(subjects.billing.upgrade, { clientId: client.id, newTier: 'small' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'ALREADY_ON_TIER' } });
    const { rows } = await stack.db.query(`SELECT count(*)::int AS n FROM upgrades WHERE client_id = $1`, [client.id]);
    expect(rows[0].n).toBe(1);
  });
});

describe('quota monitoring', () => {
  it("keeps working, overview and both checks, after a customer's client was deleted", async () => {
    const gone = await subscribe('gone@example.com', 'starter');
    const kept = await subscribe('kept@example.com', 'starter');
    await stack.authDb.query(`UPDATE clients SET usage_month = 900 WHERE id = $1`, [kept.client.id]);
    await stack.authDb.query(`UPDATE clients SET subscription_status = 'payment_failed' WHERE id = $1`, [
      gone.client.id,
    ]);
    // As the admin's delete does (auth's ClientsService.delete): keys revoked, the client row gone.
    await stack.authDb.query(
      `UPDATE api_keys SET revoked_at = now(), revoked_reason = 'client_deleted' WHERE client_id = $1`,
      [gone.client.id],
    );
    await stack.authDb.query(`DELETE FROM clients WHERE id = $1`, [gone.client.id]);

    const warned = await stack.call<QuotaCheckResponse>(subjects.billing.checkWarnings, {});
    expect(warned.notified).toBeGreaterThanOrEqual(1);
    const reminded = await stack.call<QuotaCheckResponse>(subjects.billing.checkPayments, {});
    expect(reminded.notified).toBe(0);
    const overview = await stack.call<QuotaMonitoringResponse>(subjects.billing.quotaMonitoring, {});
    expect(overview.quotaWarnings.map((row) => row.client_id)).toContain(kept.client.id);
    const listed = [...overview.quotaWarnings, ...overview.quotaExceeded, ...overview.paymentFailures];
    expect(listed.map((row) => row.client_id)).not.toContain(gone.client.id);
  });

  it('warns a client at 80% once per billing period', async () => {
    const { client } = await subscribe('heavy@example.com', 'starter');
    await stack.authDb.query(`UPDATE clients SET usage_month = 850 WHERE id = $1`, [client.id]);
    const first = await stack.call<QuotaCheckResponse>(subjects.billing.checkWarnings, {});
    expect(first.notified).toBeGreaterThanOrEqual(1);
    await stack.call(subjects.billing.checkWarnings, {});
    const { rows: mails } = await stack.db.query(
      `SELECT subject FROM mail_outbox WHERE recipient = 'heavy@example.com' AND subject LIKE '%quota%'`,
    );
    expect(mails).toHaveLength(1);

    // A client who turned quota warnings off is still listed for the admin, but not mailed.
    const quiet = await subscribe('quiet@example.com', 'starter');
    await stack.authDb.query(`INSERT INTO notification_settings (client_id, quota_warnings) VALUES ($1, false)`, [
      quiet.client.id,
    ]);
    await stack.authDb.query(`UPDATE clients SET usage_month = 990 WHERE id = $1`, [quiet.client.id]);
    await stack.call(subjects.billing.checkWarnings, {});
    const { rows: quietMail } = await stack.db.query(
      `SELECT subject FROM mail_outbox WHERE recipient = 'quiet@example.com' AND subject LIKE '%quota%'`,
    );
    expect(quietMail).toEqual([]);

    const overview = await stack.call<QuotaMonitoringResponse>(subjects.billing.quotaMonitoring, {});
    expect(overview.quotaWarnings.map((row) => row.client_id)).toContain(quiet.client.id);
    expect(overview.quotaWarnings).toContainEqual({
      client_id: client.id,
      client_name: 'heavy@example.com',
      tier: 'starter',
      usage_month: 850,
      quota_month: 1_000,
      usage_percent: 85,
    });
    expect(overview.quotaExceeded.find((row) => row.client_id === client.id)).toBeUndefined();
    expect(overview.recentEvents.filter((e) => e.client_id === client.id)).toEqual([
      expect.objectContaining({ event_type: 'quota_warning', usage: 850, quota: 1_000, percentage: 85 }),
    ]);
  });

  it('lists a client over quota, with the shape the admin console reads, and mails each kind once', async () => {
    const { client } = await subscribe('over@example.com', 'starter');
    await stack.authDb.query(`UPDATE clients SET usage_month = 1000 WHERE id = $1`, [client.id]);
    await stack.call(subjects.billing.checkWarnings, {});
    await stack.call(subjects.billing.checkWarnings, {});
    const overview = await stack.call<QuotaMonitoringResponse>(subjects.billing.quotaMonitoring, {});
    const row = {
      client_id: client.id,
      client_name: 'over@example.com',
      tier: 'starter',
      usage_month: 1_000,
      quota_month: 1_000,
      usage_percent: 100,
    };
    expect(overview.quotaExceeded).toContainEqual(row);
    expect(overview.quotaWarnings).toContainEqual(row);
    const events = overview.recentEvents.filter((e) => e.client_id === client.id);
    expect(events.map((e) => e.event_type).sort()).toEqual(['quota_exceeded', 'quota_warning']);
    for (const event of events) {
      expect(event).toEqual({
        id: expect.any(String),
        event_type: event.event_type,
        client_id: client.id,
        client_name: 'over@example.com',
        usage: 1_000,
        quota: 1_000,
        percentage: 100,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      });
    }
    expect(overview.recentEvents.length).toBeLessThanOrEqual(50);
    const mails = await stack.mailTo('over@example.com');
    expect(
      mails
        .map((m) => m.subject)
        .filter((subject) => /quota/i.test(subject))
        .sort(),
    ).toEqual(['You have used 100% of your Vigil quota', 'Your Vigil monthly quota is used up']);
  });

  it("records the gateway's quota crossings under the billing period, mailing once", async () => {
    const { client } = await subscribe('busy@example.com', 'starter');
    const crossing = (usage: number) => ({
      id: `quota_warning:${client.id}:2026-11`,
      event_type: 'quota_warning',
      client_id: client.id,
      client_name: 'Busy Ltd',
      tier: 'starter',
      period: '2026-11',
      usage,
      quota: 1_000,
      percentage: usage / 10,
      created_at: new Date().toISOString(),
    });
    await stack.publish(subjects.gateway.quotaWarning, crossing(800));
    await stack.publish(subjects.gateway.quotaWarning, crossing(801));
    await stack.publish(subjects.gateway.quotaWarning, { nonsense: true });
    const recorded = async () =>
      (await stack.db.query(`SELECT kind, usage FROM billing_events WHERE client_id = $1`, [client.id])).rows;
    await eventually(recorded, (rows) => rows.length > 0);
    // Both deliveries are handled concurrently, so either may be the one kept; what
    // matters is that the period's warning is recorded exactly once.
    await new Promise((r) => setTimeout(r, 200));
    const events = await recorded();
    expect(events).toHaveLength(1);
    expect(events[0]).toEqual({ kind: 'quota_warning', usage: expect.any(Number) });
    expect([800, 801]).toContain(events[0].usage);
    // The scheduled check for the same period does not warn again.
    await stack.authDb.query(`UPDATE clients SET usage_month = 850 WHERE id = $1`, [client.id]);
    await stack.call(subjects.billing.checkWarnings, {});
    const { rows: mails } = await stack.db.query(
      `SELECT subject FROM mail_outbox WHERE recipient = 'busy@example.com' AND subject LIKE '%quota%'`,
    );
    expect(mails).toEqual([{ subject: 'You have used 80% of your Vigil quota' }]);
  });

  it('resets usage when the billing period ends, not on the calendar month, and only once', async () => {
    const { client } = await subscribe('renewing@example.com', 'small');
    // Subscribed on the 20th of last month: the period ended a minute ago.
    const end = new Date(Date.now() - 60_000);
    const start = new Date(end.getTime() - 30 * 86_400_000);
    await stack.movePeriod(client.id, start, end);
    await stack.authDb.query(`UPDATE clients SET usage_month = 4900 WHERE id = $1`, [client.id]);

    await stack.call(subjects.billing.checkWarnings, {});
    const { rows } = await stack.authDb.query(`SELECT usage_month FROM clients WHERE id = $1`, [client.id]);
    expect(rows[0].usage_month).toBe(0);
    const { rows: customer } = await stack.db.query(`SELECT period_start FROM customers WHERE client_id = $1`, [
      client.id,
    ]);
    expect((customer[0].period_start as Date).toISOString()).toBe(end.toISOString());
    // No warning for the 98% of the period that ended.
    const { rows: warnings } = await stack.db.query(
      `SELECT count(*)::int AS n FROM billing_events WHERE client_id = $1`,
      [client.id],
    );
    expect(warnings[0].n).toBe(0);

    await stack.authDb.query(`UPDATE clients SET usage_month = 5 WHERE id = $1`, [client.id]);
    await stack.call(subjects.billing.checkWarnings, {});
    const { rows: after } = await stack.authDb.query(`SELECT usage_month FROM clients WHERE id = $1`, [client.id]);
    expect(after[0].usage_month).toBe(5);
  });
});
