// Stripe's webhook and billing's events through the real HTTP edge: two gateway replicas (the
// key cache on, as in production) in front of auth and billing, the Stripe SDK pointed at a
// loopback fake, and webhook bodies signed by the SDK's own test-header helper.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { subjects, type CheckoutSessionReply } from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import request from 'supertest';
import { startFakeStripe, type FakeStripe } from './fake-stripe.js';
import { eventually, startBillingStack, type BillingStack } from './harness.js';

const SECRET_KEY = 'sk_test_vigil_http';
const WEBHOOK_SECRET = 'whsec_test_vigil_http';
const stripe = new Stripe(SECRET_KEY);

let stack: BillingStack;
let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe();
  stack = await startBillingStack(
    { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: fake.url },
    { gateways: 2, gatewayEnv: { KEY_CACHE_TTL_MS: '5000' } },
  );
}, 90_000);
afterAll(async () => {
  await stack?.stop();
  await fake?.stop();
});

const now = () => Math.floor(Date.now() / 1000);
let sequence = 0;
function event(type: string, object: Record<string, unknown>, created = now()) {
  return { id: `evt_http_${++sequence}`, object: 'event', type, created, api_version: '2026-01-28', data: { object } };
}
/** The bytes Stripe would send (pretty-printed, as Stripe does) and their signature. */
function signed(payload: object, secret = WEBHOOK_SECRET) {
  const body = JSON.stringify(payload, null, 2);
  return { body, signature: stripe.webhooks.generateTestHeaderString({ payload: body, secret }) };
}
const gateway = (replica = 0) => request(stack.gatewayUrls[replica]!);
const postWebhook = (body: string, signature: string | undefined, replica = 0) => {
  const req = gateway(replica).post('/api/payment/webhook').set('content-type', 'application/json; charset=utf-8');
  return (signature === undefined ? req : req.set('stripe-signature', signature)).send(body);
};
const counts = async () =>
  (
    await stack.db.query(
      `SELECT (SELECT count(*) FROM customers)::int AS customers, (SELECT count(*) FROM processed_provider_events)::int AS events,
              (SELECT count(*) FROM mail_outbox)::int AS mails`,
    )
  ).rows[0];

const user: { id: string; email: string } = { id: randomUUID(), email: 'wire@example.com' };
const PASSWORD = 'billing-wire-passphrase';
let checkout: CheckoutSessionReply;
let apiKey = '';
let clientId = '';

/** A confirmed account, as the web app makes one: the billing customer belongs to a real user. */
async function signUp(): Promise<string> {
  await gateway(0)
    .post('/auth/v1/signup')
    .send({
      full_name: 'Wire',
      email: user.email,
      password: PASSWORD,
      confirm_password: PASSWORD,
      accepted_terms: true,
    });
  const { value: text } = await eventually(
    async () =>
      (
        await stack.authDb.query<{ text_body: string }>(
          `SELECT text_body FROM mailbox WHERE recipient = $1 ORDER BY created_at DESC LIMIT 1`,
          [user.email],
        )
      ).rows[0]?.text_body ?? '',
    (body) => /token=/.test(body),
    10_000,
  );
  const token = /token=([A-Za-z0-9_-]+)/.exec(text)![1];
  const verified = await gateway(0).post('/auth/v1/verify').send({ type: 'signup', token });
  expect(verified.body.user?.id).toEqual(expect.any(String));
  return verified.body.user.id as string;
}

describe('POST /api/payment/webhook through the gateway', () => {
  beforeAll(async () => {
    user.id = await signUp();
    checkout = await stack.call<CheckoutSessionReply>(subjects.billing.createCheckout, {
      user,
      tier: 'medium',
      clientEmail: user.email,
    });
  });
  const completed = () =>
    event('checkout.session.completed', {
      id: checkout.sessionId,
      object: 'checkout.session',
      customer: 'cus_1',
      subscription: 'sub_1',
    });

  it('answers 400 problem+json to a bad, missing or stale signature, and changes nothing', async () => {
    const forged = signed(completed(), 'whsec_someone_else');
    const stale = completed();
    const staleBody = JSON.stringify(stale, null, 2);
    const staleSignature = stripe.webhooks.generateTestHeaderString({
      payload: staleBody,
      secret: WEBHOOK_SECRET,
      timestamp: now() - 301,
    });
    for (const [body, signature] of [
      [forged.body, forged.signature],
      [staleBody, staleSignature],
      [forged.body, undefined],
      [forged.body, 'not a signature'],
    ] as const) {
      const res = await postWebhook(body, signature);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 400, code: 'INVALID_SIGNATURE' });
      expect(JSON.stringify(res.body)).not.toMatch(/at .*\.js|stack/i);
    }
    expect(await counts()).toEqual({ customers: 0, events: 0, mails: 0 });
    const { rows } = await stack.authDb.query(`SELECT count(*)::int AS n FROM clients`);
    expect(rows[0].n).toBe(0);
  });

  it('refuses a correctly signed payload whose JSON was re-serialised (whitespace changed)', async () => {
    const original = signed(completed());
    for (const reserialised of [JSON.stringify(JSON.parse(original.body)), `${original.body}\n`]) {
      const res = await postWebhook(reserialised, original.signature);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_SIGNATURE');
    }
    expect(await counts()).toEqual({ customers: 0, events: 0, mails: 0 });
  });

  it('applies a validly signed checkout.session.completed: an active client whose key the gateway accepts', async () => {
    const activated = stack.events(subjects.billing.subscriptionActivated);
    const delivery = signed(completed());
    const res = await postWebhook(delivery.body, delivery.signature);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, duplicate: false });

    // Stripe retries a delivery it thinks failed, re-signed, possibly to another replica: one effect.
    const retried = stripe.webhooks.generateTestHeaderString({ payload: delivery.body, secret: WEBHOOK_SECRET });
    for (const [signature, replica] of [
      [delivery.signature, 0],
      [retried, 1],
    ] as const) {
      const again = await postWebhook(delivery.body, signature, replica);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ received: true, duplicate: true });
    }
    expect(await counts()).toEqual({ customers: 1, events: 1, mails: 1 });
    const { rows: clients } = await stack.authDb.query(
      `SELECT id, tier, subscription_status, quota_month FROM clients`,
    );
    expect(clients).toEqual([
      { id: expect.any(String), tier: 'medium', subscription_status: 'active', quota_month: 25_000 },
    ]);
    await eventually(
      () => activated,
      (list) => list.length >= 1,
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(activated).toHaveLength(1);

    const { rows } = await stack.db.query(`SELECT client_id FROM customers`);
    clientId = rows[0].client_id;
    const mail = await stack.mailTo(user.email);
    apiKey = /Your API key: ([0-9a-f]{64})/.exec(mail[0]!.body)![1]!;
    const status = await gateway(1).get('/api/v1/status').set('x-api-key', apiKey);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ tier: 'medium', quota: 25_000, subscriptionStatus: 'active' });
  });
});

describe('GET /api/payment/portal-session through the gateway', () => {
  it("opens the Stripe Customer Portal for the signed-in user's own client; a key alone or nothing is refused", async () => {
    const signedIn = await gateway(1)
      .post('/auth/v1/token?grant_type=password')
      .send({ email: user.email, password: PASSWORD })
      .expect(200);
    const portal = await gateway(1)
      .get('/api/payment/portal-session')
      .set('authorization', `Bearer ${signedIn.body.access_token}`);
    expect(portal.status).toBe(200);
    expect(portal.body).toEqual({ url: 'https://billing.stripe.com/p/session/test_1' });
    const sent = fake.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1)!;
    expect(Object.fromEntries(sent.form)).toEqual({ customer: 'cus_1', return_url: 'http://web.test/account' });
    // Billing is managed by a person signed in, not by an integration holding the key.
    const keyOnly = await gateway(1).get('/api/payment/portal-session').set('x-api-key', apiKey);
    expect([keyOnly.status, keyOnly.body.code]).toEqual([401, 'UNAUTHENTICATED']);
    const anonymous = await gateway(1).get('/api/payment/portal-session');
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 'UNAUTHENTICATED']);
  });
});

describe('gateway replicas follow billing events', () => {
  const statusOn = (replica: number) => gateway(replica).get('/api/v1/status').set('x-api-key', apiKey);

  it("applies an upgrade's rate limit and quota on another replica well within the 5 s key cache", async () => {
    // Both replicas hold the medium-tier answer in their 5 s caches.
    for (const replica of [0, 1]) {
      const before = await statusOn(replica);
      expect(before.headers['ratelimit-limit']).toBe('200');
      expect(before.body).toMatchObject({ tier: 'medium', quota: 25_000 });
    }
    const start = new Date(Date.now() - 10 * 86_400_000);
    await stack.db.query(`UPDATE customers SET period_start = $2, period_end = $3 WHERE client_id = $1`, [
      clientId,
      start,
      new Date(start.getTime() + 30 * 86_400_000),
    ]);
    const upgradedAt = Date.now();
    await stack.call(subjects.billing.upgrade, { clientId, newTier: 'large' });
    const { value: after } = await eventually(
      () => statusOn(1),
      (res) => res.body.tier === 'large',
      1_500,
    );
    const elapsed = Date.now() - upgradedAt;
    expect(elapsed).toBeLessThan(1_500);
    expect(after.headers['ratelimit-limit']).toBe('500');
    expect(after.body).toMatchObject({ tier: 'large', quota: 100_000 });
  });

  it('refuses the key on another replica soon after a failed invoice, with a clear code', async () => {
    for (const replica of [0, 1]) expect((await statusOn(replica)).body.subscriptionStatus).toBe('active');
    const failed = signed(
      event('invoice.payment_failed', {
        id: 'in_http_1',
        object: 'invoice',
        customer: 'cus_1',
        parent: { subscription_details: { subscription: 'sub_1' } },
      }),
    );
    const res = await postWebhook(failed.body, failed.signature, 0);
    expect(res.status).toBe(200);
    await eventually(
      () => statusOn(1),
      (r) => r.body.subscriptionStatus === 'payment_failed',
      1_500,
    );
    const refused = await gateway(1)
      .post('/api/v1/screen')
      .set('x-api-key', apiKey)
      .send({ name: 'John Smith', entityType: 'individual' });
    expect(refused.status).toBe(402);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ status: 402, code: 'SUBSCRIPTION_INACTIVE' });
  });
});
