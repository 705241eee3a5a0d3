// The sandbox provider behind the real gateway (with screening): a paid checkout's key screens
// over HTTP; and one notion of the usage period: the gateway counts by the client's billing period
// (as auth resolves it with the key), refuses with a Retry-After to that period's end, starts again
// at 0 exactly when it rolls over, and billing's own roll, when it comes, resets nothing twice.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import {
  subjects,
  type ApiStatusResponse,
  type CheckoutSessionReply,
  type ClientByEmailResponse,
  type QuotaEvent,
} from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { eventually, startBillingStack, type BillingStack } from './harness.js';

jest.setTimeout(30_000);

let stack: BillingStack;
beforeAll(async () => {
  // The key cache on, as in production: the period must roll over even for a cached key.
  stack = await startBillingStack({}, { gateway: true, gatewayEnv: { KEY_CACHE_TTL_MS: '5000' }, screening: true });
}, 90_000);
afterAll(async () => {
  await stack?.stop();
});

const DAY_MS = 86_400_000;
const gateway = () => request(stack.gatewayUrl!);

async function subscribe(email: string, tier: string) {
  const user = { id: randomUUID(), email };
  const checkout = await stack.call<CheckoutSessionReply>(subjects.billing.createCheckout, {
    user,
    tier,
    clientEmail: email,
  });
  await stack.call(subjects.billing.sandboxComplete, {
    user,
    sessionId: checkout.sessionId,
    cardNumber: '4242424242424242',
  });
  const { client } = await stack.call<ClientByEmailResponse>(subjects.billing.clientByEmail, { user, email });
  return { id: client.id, key: client.api_key! };
}
const billingPeriod = async (clientId: string) => {
  const { rows } = await stack.db.query<{ period_start: Date; period_end: Date }>(
    `SELECT period_start, period_end FROM customers WHERE client_id = $1`,
    [clientId],
  );
  return { start: rows[0]!.period_start.toISOString(), end: rows[0]!.period_end.toISOString() };
};
/** Sets the gateway's counter for one client and period (what screenings would have counted). */
const setUsage = (clientId: string, period: string, used: number) =>
  stack.db.query(
    `INSERT INTO "${stack.gatewaySchema}".quota_usage (client_id, period, used) VALUES ($1, $2, $3)
     ON CONFLICT (client_id, period) DO UPDATE SET used = EXCLUDED.used`,
    [clientId, period, used],
  );
const status = async (key: string) => {
  const res = await gateway().get('/api/v1/status').set('x-api-key', key);
  expect(res.status).toBe(200);
  return res.body as ApiStatusResponse;
};

describe('sandbox checkout through the gateway', () => {
  it('turns a paid checkout into an active client whose key screens at the gateway, counted in its period', async () => {
    const client = await subscribe('screener@example.com', 'small');
    const screened = await gateway()
      .post('/api/v1/screen')
      .set('x-api-key', client.key)
      .send({ name: 'Viktor Bout', entityType: 'individual' });
    expect(screened.status).toBe(200);
    expect(screened.headers['ratelimit-limit']).toBe('50');
    expect(screened.body).toMatchObject({ searchedName: 'Viktor Bout' });
    expect(screened.body.results.length).toBeGreaterThan(0);
    const period = await billingPeriod(client.id);
    await expect(status(client.key)).resolves.toMatchObject({
      tier: 'small',
      usage: 1,
      quota: 5_000,
      remaining: 4_999,
      subscriptionStatus: 'active',
      period: period.start,
    });
    // The count reaches auth's copy, which quota monitoring and the account page read (≤ 10 s behind).
    await eventually(
      async () =>
        (await stack.authDb.query(`SELECT usage_month FROM clients WHERE id = $1`, [client.id])).rows[0].usage_month,
      (usage) => usage === 1,
      15_000,
    );
  });
});

describe('usage period', () => {
  it('counts by the billing period and refuses until its end, not the calendar month', async () => {
    const client = await subscribe('period@example.com', 'starter');
    const period = await billingPeriod(client.id);
    await expect(status(client.key)).resolves.toMatchObject({
      usage: 0,
      quota: 1_000,
      period: period.start,
      periodEnd: period.end,
    });

    await setUsage(client.id, period.start, 1_000);
    await expect(status(client.key)).resolves.toMatchObject({ usage: 1_000, remaining: 0 });
    const refused = await gateway().post('/api/v1/screen').set('x-api-key', client.key).send({ name: 'John Smith' });
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ status: 429, code: 'QUOTA_EXCEEDED' });
    const retryAfter = Number(refused.headers['retry-after']);
    const untilPeriodEnd = (Date.parse(period.end) - Date.now()) / 1000;
    expect(Math.abs(retryAfter - untilPeriodEnd)).toBeLessThan(5);
    // A subscription bought today runs a month from today: about 28–31 days, whatever the calendar says.
    expect(retryAfter).toBeGreaterThan(27 * 86_400);
  });

  it('announces quota crossings under the billing period, which billing records once', async () => {
    const client = await subscribe('crossing@example.com', 'starter');
    const period = await billingPeriod(client.id);
    const warnings = stack.events(subjects.gateway.quotaWarning);
    await setUsage(client.id, period.start, 799);
    // The 800th name crosses 80%.
    const screened = await gateway().post('/api/v1/screen').set('x-api-key', client.key).send({ name: 'John Smith' });
    expect(screened.status).toBe(200);
    const [event] = (
      await eventually(
        () => warnings,
        (list) => list.length >= 1,
        5_000,
      )
    ).value as QuotaEvent[];
    // The gateway counts names in small leased blocks (issue #22), so the crossing is announced with
    // the count that crossed: at least 800, and short of the quota.
    expect(event).toMatchObject({ client_id: client.id, period: period.start, quota: 1_000 });
    expect(event!.usage).toBeGreaterThanOrEqual(800);
    expect(event!.usage).toBeLessThan(1_000);
    const { value: recorded } = await eventually(
      async () =>
        (await stack.db.query(`SELECT kind, period FROM billing_events WHERE client_id = $1`, [client.id])).rows,
      (rows) => rows.length >= 1,
      5_000,
    );
    expect(recorded).toEqual([{ kind: 'quota_warning', period: period.start }]);
  });

  it('starts the count at 0 exactly when the period rolls over, and billing rolling it later resets nothing twice', async () => {
    const client = await subscribe('rollover@example.com', 'small');
    // Subscribed a month ago: the period ends in 3 s.
    const end = new Date(Date.now() + 3_000);
    const start = new Date(end.getTime() - 30 * DAY_MS);
    await stack.movePeriod(client.id, start, end);
    await setUsage(client.id, start.toISOString(), 4_900);
    // The key is now cached for up to 5 s, but never past the period's end.
    await expect(status(client.key)).resolves.toMatchObject({ usage: 4_900, period: start.toISOString() });

    await new Promise((r) => setTimeout(r, end.getTime() - Date.now()));
    const rolled = await status(client.key);
    expect(rolled).toMatchObject({ usage: 0, remaining: 5_000, period: end.toISOString() });
    expect(Date.parse(rolled.periodEnd) - end.getTime()).toBeGreaterThanOrEqual(28 * DAY_MS);

    // Screenings of the new period, then billing's scheduled check rolls its own record onto the
    // same period: the gateway's count stays, and auth's copy is reset once, not again.
    await setUsage(client.id, rolled.period, 7);
    await stack.call(subjects.billing.checkWarnings, {});
    await expect(billingPeriod(client.id)).resolves.toEqual({ start: rolled.period, end: rolled.periodEnd });
    await expect(status(client.key)).resolves.toMatchObject({ usage: 7, period: rolled.period });
    const { rows } = await stack.authDb.query(`SELECT usage_month, period_start FROM clients WHERE id = $1`, [
      client.id,
    ]);
    expect(rows[0]).toEqual({ usage_month: 0, period_start: new Date(rolled.period) });
    await stack.authDb.query(`UPDATE clients SET usage_month = 7 WHERE id = $1`, [client.id]);
    await stack.call(subjects.billing.checkWarnings, {});
    await expect(status(client.key)).resolves.toMatchObject({ usage: 7, period: rolled.period });
    const { rows: after } = await stack.authDb.query(`SELECT usage_month FROM clients WHERE id = $1`, [client.id]);
    expect(after[0].usage_month).toBe(7);
    // The old period's counter is untouched (and no longer read).
    const { rows: counters } = await stack.db.query(
      `SELECT period, used FROM "${stack.gatewaySchema}".quota_usage WHERE client_id = $1 ORDER BY period`,
      [client.id],
    );
    expect(counters).toEqual([
      { period: start.toISOString(), used: 4_900 },
      { period: rolled.period, used: 7 },
    ]);
  });
});
