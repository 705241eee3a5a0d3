import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  subjects,
  type CheckoutSessionReply,
  type ClientByEmailResponse,
  type QuotaMonitoringResponse,
  type ResolvedKey,
  type SubscriptionCheckReply,
  type WebhookReply,
} from '@vigil/proto';
import { createHash, randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { startFakeStripe, type StripeRequest } from './fake-stripe.js';
import { eventually, startBillingStack, type BillingStack } from './harness.js';

const SECRET_KEY = 'sk_test_vigil';
const WEBHOOK_SECRET = 'whsec_test_vigil';
const stripe = new Stripe(SECRET_KEY);

let stack: BillingStack;
let fake: Awaited<ReturnType<typeof startFakeStripe>>;
beforeAll(async () => {
  fake = await startFakeStripe();
  stack = await startBillingStack(
    { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: fake.url },
    { gateway: true },
  );
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await fake?.stop();
});

const now = () => Math.floor(Date.now() / 1000);
let sequence = 0;
function event(type: string, object: Record<string, unknown>, created = now()) {
  return { id: `evt_test_${++sequence}`, object: 'event', type, created, api_version: '2026-01-28', data: { object } };
}
function deliver(payload: object, options: { secret?: string; timestamp?: number } = {}) {
  const body = JSON.stringify(payload, null, 2);
  const signature = stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret: options.secret ?? WEBHOOK_SECRET,
    ...(options.timestamp ? { timestamp: options.timestamp } : {}),
  });
  return { payload: body, signature };
}
const subscriptionPeriod = { current_period_start: now() - 86_400, current_period_end: now() + 29 * 86_400 };

const user = { id: randomUUID(), email: 'bank@example.com' };
/** What the web app's route guards ask (hasSubscription) for the signed-in user. */
const subscription = () => stack.call<SubscriptionCheckReply>(subjects.billing.subscription, { user });
let checkout: CheckoutSessionReply;
let sent: StripeRequest;
let apiKey = '';
let clientId = '';

describe('Stripe', () => {
  it('creates a subscription-mode Checkout Session with the plan price through the SDK', async () => {
    checkout = await stack.call<CheckoutSessionReply>(subjects.billing.createCheckout, {
      user,
      tier: 'medium',
      clientEmail: 'bank@example.com',
    });
    expect(checkout).toEqual({ sessionId: 'cs_test_1', url: 'https://checkout.stripe.com/c/pay/cs_test_1' });
    sent = fake.requests.find((r) => r.path === '/v1/checkout/sessions')!;
    expect(sent.method).toBe('POST');
    expect(sent.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(Object.fromEntries(sent.form)).toMatchObject({
      mode: 'subscription',
      customer_email: 'bank@example.com',
      client_reference_id: user.id,
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '99900',
      'line_items[0][price_data][recurring][interval]': 'month',
      'metadata[tier]': 'medium',
      success_url: 'http://web.test/payment/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://web.test/payment/cancel',
    });
  });

  it('refuses a webhook with a bad or stale signature and changes nothing', async () => {
    const completed = event('checkout.session.completed', {
      id: checkout.sessionId,
      object: 'checkout.session',
      customer: 'cus_1',
      subscription: 'sub_1',
    });
    const forged = deliver(completed, { secret: 'whsec_someone_else' });
    expect((await stack.fail(subjects.billing.webhook, forged)).code).toBe('INVALID_SIGNATURE');
    const stale = deliver(completed, { timestamp: now() - 301 });
    expect((await stack.fail(subjects.billing.webhook, stale)).code).toBe('INVALID_SIGNATURE');
    const tampered = deliver(completed);
    expect(
      (await stack.fail(subjects.billing.webhook, { ...tampered, payload: tampered.payload.replace('cus_1', 'cus_2') }))
        .code,
    ).toBe('INVALID_SIGNATURE');
    expect((await stack.fail(subjects.billing.webhook, { payload: tampered.payload })).code).toBe('INVALID_SIGNATURE');
    const counts = await stack.db.query(
      `SELECT (SELECT count(*) FROM customers)::int AS customers, (SELECT count(*) FROM processed_provider_events)::int AS events`,
    );
    expect(counts.rows[0]).toEqual({ customers: 0, events: 0 });
  });

  it('holds back a subscription event that overtook its checkout until the checkout is known', async () => {
    const early = deliver(
      event('customer.subscription.updated', {
        id: 'sub_1',
        object: 'subscription',
        customer: 'cus_1',
        status: 'active',
        items: { data: [subscriptionPeriod] },
      }),
    );
    expect((await stack.fail(subjects.billing.webhook, early)).code).toBe('SERVICE_UNAVAILABLE');
    const { rows } = await stack.db.query(`SELECT count(*)::int AS n FROM processed_provider_events`);
    expect(rows[0].n).toBe(0);
  });

  it('provisions once however often checkout.session.completed is delivered', async () => {
    await expect(subscription()).resolves.toEqual({ hasSubscription: false, tier: null, subscription_status: null });
    const activated = stack.events(subjects.billing.subscriptionActivated);
    const completed = deliver(
      event('checkout.session.completed', {
        id: checkout.sessionId,
        object: 'checkout.session',
        customer: 'cus_1',
        subscription: 'sub_1',
      }),
    );
    await expect(stack.call<WebhookReply>(subjects.billing.webhook, completed)).resolves.toEqual({
      received: true,
      duplicate: false,
    });
    await expect(stack.call<WebhookReply>(subjects.billing.webhook, completed)).resolves.toEqual({
      received: true,
      duplicate: true,
    });
    // Retried with a fresh signature (Stripe re-signs every attempt): still one effect.
    const again = {
      ...completed,
      signature: stripe.webhooks.generateTestHeaderString({ payload: completed.payload, secret: WEBHOOK_SECRET }),
    };
    await expect(stack.call<WebhookReply>(subjects.billing.webhook, again)).resolves.toEqual({
      received: true,
      duplicate: true,
    });

    const { client } = await stack.call<ClientByEmailResponse>(subjects.billing.clientByEmail, {
      user,
      email: 'bank@example.com',
    });
    expect(client).toMatchObject({ tier: 'medium', subscription_status: 'active', quota_month: 25_000 });
    expect(client.api_key).toMatch(/^[0-9a-f]{64}$/);
    const { rows: clients } = await stack.authDb.query(`SELECT count(*)::int AS n FROM clients`);
    expect(clients[0].n).toBe(1);
    const { rows: mails } = await stack.db.query(`SELECT count(*)::int AS n FROM mail_outbox`);
    expect(mails[0].n).toBe(1);
    await eventually(
      () => activated,
      (list) => list.length >= 1,
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(activated).toHaveLength(1);
    apiKey = client.api_key!;
    clientId = client.id;

    // The key works at the gateway at once, with the plan bought.
    const status = await fetch(`${stack.gatewayUrl}/api/v1/status`, { headers: { 'x-api-key': apiKey } });
    expect(status.status).toBe(200);
    await expect(status.json()).resolves.toMatchObject({ tier: 'medium', quota: 25_000, subscriptionStatus: 'active' });
  });

  it('opens the Customer Portal for the Stripe customer', async () => {
    await expect(stack.call(subjects.billing.portalSession, { clientId })).resolves.toEqual({
      url: 'https://billing.stripe.com/p/session/test_1',
    });
    const portal = fake.requests.find((r) => r.path === '/v1/billing_portal/sessions')!;
    expect(Object.fromEntries(portal.form)).toEqual({ customer: 'cus_1', return_url: 'http://web.test/account' });
  });

  it('upgrades mid-period: moves the subscription to the new price and invoices the proration now', async () => {
    // Ten days into a 30-day period: (2,499 − 999) × 20 / 30 = 1,000.00
    const start = new Date(Date.now() - 10 * 86_400_000);
    await stack.db.query(`UPDATE customers SET period_start = $2, period_end = $3 WHERE client_id = $1`, [
      clientId,
      start,
      new Date(start.getTime() + 30 * 86_400_000),
    ]);

    fake.declineNextPayment();
    const declined = await stack.fail(subjects.billing.upgrade, { clientId, newTier: 'large' });
    expect(declined.code).toBe('PAYMENT_PROCESSING_ERROR');
    fake.requests.length = 0;

    await expect(stack.call(subjects.billing.upgrade, { clientId, newTier: 'large' })).resolves.toMatchObject({
      tier: 'large',
      proratedCost: 1_000,
      newTotalQuota: 100_000,
      daysRemaining: 20,
    });
    const sentTo = (path: string) =>
      Object.fromEntries(fake.requests.find((r) => r.method === 'POST' && r.path === path)!.form);
    expect(sentTo('/v1/subscriptions/sub_1')).toMatchObject({
      'items[0][id]': 'si_1',
      'items[0][price_data][product]': 'prod_1',
      'items[0][price_data][unit_amount]': '249900',
      'items[0][price_data][recurring][interval]': 'month',
      proration_behavior: 'none',
      'metadata[tier]': 'large',
    });
    expect(sentTo('/v1/invoiceitems')).toMatchObject({ customer: 'cus_1', amount: '100000', currency: 'usd' });
    expect(fake.requests.some((r) => r.path === '/v1/invoices/in_up_1/pay')).toBe(true);

    // The gateway sees the new quota at once.
    const status = await fetch(`${stack.gatewayUrl}/api/v1/status`, { headers: { 'x-api-key': apiKey } });
    await expect(status.json()).resolves.toMatchObject({ tier: 'large', quota: 100_000 });
  });

  it('flips the client to payment_failed on a failed invoice, ignores older news, and recovers on a paid invoice', async () => {
    const failedEvents = stack.events(subjects.billing.paymentFailed);
    const keyHash = createHash('sha256').update(apiKey).digest('hex');
    const failedAt = now();
    const failed = deliver(
      event(
        'invoice.payment_failed',
        {
          id: 'in_1',
          object: 'invoice',
          customer: 'cus_1',
          parent: { subscription_details: { subscription: 'sub_1' } },
        },
        failedAt,
      ),
    );
    await stack.call(subjects.billing.webhook, failed);
    await expect(subscription()).resolves.toEqual({
      hasSubscription: false,
      tier: 'large',
      subscription_status: 'payment_failed',
    });
    // What the gateway's guard reads: it refuses screening with SUBSCRIPTION_INACTIVE for this status.
    await expect(stack.call<ResolvedKey>(subjects.clients.resolveKey, { keyHash })).resolves.toMatchObject({
      subscriptionStatus: 'payment_failed',
    });
    // …and so does the gateway: the key is refused with a clear code.
    const refused = await fetch(`${stack.gatewayUrl}/api/v1/screen`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'John Smith' }),
    });
    expect(refused.status).toBe(402);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    await expect(refused.json()).resolves.toMatchObject({ code: 'SUBSCRIPTION_INACTIVE', status: 402 });
    const { value: published } = await eventually(
      () => failedEvents,
      (list) => list.length >= 1,
    );
    expect(published[0]).toMatchObject({ client_id: clientId, subscription_status: 'payment_failed' });

    const monitoring = await stack.call<QuotaMonitoringResponse>(subjects.billing.quotaMonitoring, {});
    expect(monitoring.paymentFailures).toEqual([
      expect.objectContaining({ client_id: clientId, subscription_status: 'payment_failed', tier: 'large' }),
    ]);
    expect(monitoring.recentEvents).toEqual([
      expect.objectContaining({ event_type: 'payment_failed', client_id: clientId }),
    ]);

    // An update written before the failure but delivered after it changes nothing.
    const older = deliver(
      event(
        'customer.subscription.updated',
        {
          id: 'sub_1',
          object: 'subscription',
          customer: 'cus_1',
          status: 'active',
          items: { data: [{ current_period_start: now() - 40 * 86_400, current_period_end: now() - 10 * 86_400 }] },
        },
        failedAt - 60,
      ),
    );
    await stack.authDb.query(`UPDATE clients SET usage_month = 700`);
    await stack.call(subjects.billing.webhook, older);
    // Nor does its older billing period reset usage.
    await expect(stack.call<ResolvedKey>(subjects.clients.resolveKey, { keyHash })).resolves.toMatchObject({
      subscriptionStatus: 'payment_failed',
      usageMonth: 700,
    });

    // Payment reminders go out once per period.
    await stack.call(subjects.billing.checkPayments, {});
    await stack.call(subjects.billing.checkPayments, {});
    const { rows: reminders } = await stack.db.query(
      `SELECT count(*)::int AS n FROM mail_outbox WHERE subject LIKE 'Action needed%'`,
    );
    expect(reminders[0].n).toBe(1);

    // A renewal: the first period (moved a month back) ended a minute ago; the next began then.
    const nextStart = now() - 60;
    await stack.movePeriod(clientId, new Date((nextStart - 30 * 86_400) * 1000), new Date(nextStart * 1000));
    const paid = deliver(
      event(
        'invoice.paid',
        {
          id: 'in_2',
          object: 'invoice',
          customer: 'cus_1',
          parent: { subscription_details: { subscription: 'sub_1' } },
          lines: { data: [{ period: { start: nextStart, end: nextStart + 30 * 86_400 } }] },
        },
        failedAt + 1,
      ),
    );
    await stack.call(subjects.billing.webhook, paid);
    await expect(stack.call<ResolvedKey>(subjects.clients.resolveKey, { keyHash })).resolves.toMatchObject({
      subscriptionStatus: 'active',
      usageMonth: 0,
    });
    // The same renewal delivered again does not reset usage a second time.
    await stack.authDb.query(`UPDATE clients SET usage_month = 5`);
    await stack.call(subjects.billing.webhook, {
      ...paid,
      signature: stripe.webhooks.generateTestHeaderString({ payload: paid.payload, secret: WEBHOOK_SECRET }),
    });
    await expect(stack.call<ResolvedKey>(subjects.clients.resolveKey, { keyHash })).resolves.toMatchObject({
      usageMonth: 5,
    });
    await expect(subscription()).resolves.toEqual({
      hasSubscription: true,
      tier: 'large',
      subscription_status: 'active',
    });
  });

  it('follows a subscription that falls past due: no access, listed for the admin, back on the next paid invoice', async () => {
    const pastDue = deliver(
      event(
        'customer.subscription.updated',
        { id: 'sub_1', object: 'subscription', customer: 'cus_1', status: 'past_due' },
        now() + 2,
      ),
    );
    await stack.call(subjects.billing.webhook, pastDue);
    await expect(subscription()).resolves.toEqual({
      hasSubscription: false,
      tier: 'large',
      subscription_status: 'past_due',
    });
    const { rows } = await stack.authDb.query(`SELECT subscription_status FROM clients WHERE id = $1`, [clientId]);
    expect(rows[0].subscription_status).toBe('past_due');
    const monitoring = await stack.call<QuotaMonitoringResponse>(subjects.billing.quotaMonitoring, {});
    expect(monitoring.paymentFailures).toEqual([
      {
        client_id: clientId,
        client_name: 'bank@example.com',
        tier: 'large',
        subscription_status: 'past_due',
        updated_at: expect.any(String),
      },
    ]);
    const paid = deliver(
      event(
        'invoice.paid',
        {
          id: 'in_3',
          object: 'invoice',
          customer: 'cus_1',
          parent: { subscription_details: { subscription: 'sub_1' } },
        },
        now() + 3,
      ),
    );
    await stack.call(subjects.billing.webhook, paid);
    await expect(subscription()).resolves.toEqual({
      hasSubscription: true,
      tier: 'large',
      subscription_status: 'active',
    });
  });

  it('cancels on customer.subscription.deleted', async () => {
    const cancelled = stack.events(subjects.billing.subscriptionCancelled);
    await stack.call(
      subjects.billing.webhook,
      deliver(
        event(
          'customer.subscription.deleted',
          { id: 'sub_1', object: 'subscription', customer: 'cus_1', status: 'canceled' },
          now() + 5,
        ),
      ),
    );
    const { rows } = await stack.authDb.query(`SELECT subscription_status FROM clients WHERE id = $1`, [clientId]);
    expect(rows[0].subscription_status).toBe('cancelled');
    await expect(subscription()).resolves.toEqual({
      hasSubscription: false,
      tier: 'large',
      subscription_status: 'cancelled',
    });
    await eventually(
      () => cancelled,
      (list) => list.length >= 1,
    );
  });
});
