import { jest } from '@jest/globals';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  DEFAULT_THRESHOLDS,
  keyRevokedEventSchema,
  resolvedKeySchema,
  subjects,
  type AccountSummary,
  type ApiKeyStatus,
  type Client,
  type ClientWithKey,
  type NotificationSettings,
  type ProvisionClientReply,
  type ResolvedKey,
  type Session,
} from '@vigil/proto';
import { createHash } from 'node:crypto';
import { adminSession, eventually, startAuthStack, userSession, type AuthStack } from './harness.js';

jest.setTimeout(60_000);

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describe('clients, API keys, thresholds and settings', () => {
  let stack: AuthStack;
  let admin: Session;
  beforeAll(async () => {
    stack = await startAuthStack({ ADMIN_EMAILS: 'root@vigil.dev' });
    admin = await adminSession(stack, 'root@vigil.dev');
  });
  afterAll(() => stack?.stop());

  const asAdmin = <T>(subject: string, payload: object = {}) =>
    stack.call<T>(subject, { accessToken: admin.access_token, ...payload });
  const resolve = (key: string) => stack.call<ResolvedKey>(subjects.clients.resolveKey, { keyHash: sha256(key) });

  it('creates a client with a 64-hex key shown once and stored as SHA-256 + 8-char prefix', async () => {
    const client = await asAdmin<ClientWithKey>(subjects.clients.create, {
      clientName: '  Acme Bank  ',
      tier: 'medium',
    });
    expect(client).toMatchObject({
      client_name: 'Acme Bank',
      tier: 'medium',
      quota_month: 25_000,
      usage_month: 0,
      subscription_status: 'active',
      threshold_config: null,
    });
    expect(client.api_key).toMatch(/^[0-9a-f]{64}$/);
    expect(client.api_key_prefix).toBe(client.api_key.slice(0, 8));

    const { rows } = await stack.db.query(`SELECT key_hash, prefix FROM api_keys WHERE client_id = $1`, [client.id]);
    expect(rows).toEqual([{ key_hash: sha256(client.api_key), prefix: client.api_key.slice(0, 8) }]);
    // The key is nowhere in the schema, in any table.
    const tables = await stack.db.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1`, [
      stack.schema,
    ]);
    for (const { table_name } of tables.rows) {
      const dump = await stack.db.query(`SELECT coalesce(string_agg(t::text, ''), '') AS text FROM "${table_name}" t`);
      expect(dump.rows[0].text).not.toContain(client.api_key);
    }

    // Listing never shows the key again.
    const { clients } = await asAdmin<{ clients: Client[] }>(subjects.clients.list);
    expect(JSON.stringify(clients)).not.toContain(client.api_key);

    const resolved = resolvedKeySchema.parse(await resolve(client.api_key));
    expect(resolved).toMatchObject({
      clientId: client.id,
      tier: 'medium',
      subscriptionStatus: 'active',
      thresholdConfig: null,
      quotaMonth: 25_000,
      rateLimitPerMinute: 200,
    });
    expect(resolved.thresholds).toEqual(DEFAULT_THRESHOLDS);
    expect(resolved.feeds).toHaveLength(8);
  });

  it('requires a trimmed client name and a tier: "Please fill in all required fields"', async () => {
    for (const body of [
      { clientName: '   ', tier: 'small' },
      { clientName: 'No Tier' },
      { clientName: 'Bad Tier', tier: 'platinum' },
    ]) {
      const error = await stack.fail(subjects.clients.create, { accessToken: admin.access_token, ...body });
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.errors?.map((e) => e.detail)).toContain('Please fill in all required fields');
    }
  });

  it('looks a client up by key: trimmed, blank is a validation error, unknown is 404', async () => {
    const client = await asAdmin<ClientWithKey>(subjects.clients.create, { clientName: 'Lookup Ltd', tier: 'small' });
    await expect(
      asAdmin<Client>(subjects.clients.findByKey, { apiKey: `  ${client.api_key}\n` }),
    ).resolves.toMatchObject({ id: client.id });
    expect(
      (await stack.fail(subjects.clients.findByKey, { accessToken: admin.access_token, apiKey: '   ' })).code,
    ).toBe('VALIDATION_FAILED');
    const unknown = await stack.fail(subjects.clients.findByKey, {
      accessToken: admin.access_token,
      apiKey: 'f'.repeat(64),
    });
    expect(unknown.code).toBe('NOT_FOUND');
    expect(unknown.message).toBe('Client not found with this API key');
  });

  it('regenerate: the old key is invalid immediately and clients.v1.key-revoked names it', async () => {
    const client = await asAdmin<ClientWithKey>(subjects.clients.create, { clientName: 'Rotate Inc', tier: 'large' });
    const events = stack.events(subjects.clients.keyRevoked);
    const regenerated = await asAdmin<ClientWithKey>(subjects.clients.regenerateKey, { clientId: client.id });
    expect(regenerated.api_key).not.toBe(client.api_key);
    expect((await stack.fail(subjects.clients.resolveKey, { keyHash: sha256(client.api_key) })).code).toBe(
      'INVALID_API_KEY',
    );
    await expect(resolve(regenerated.api_key)).resolves.toMatchObject({ clientId: client.id });

    const { value: [event] } = await eventually(
      () => events.received,
      (r) => r.length >= 1,
    );
    events.stop();
    expect(keyRevokedEventSchema.parse(event)).toMatchObject({
      clientId: client.id,
      keyHash: sha256(client.api_key),
      keyPrefix: client.api_key.slice(0, 8),
      reason: 'regenerated',
    });
  });

  it('revoke: no key works until one is regenerated; status tells', async () => {
    const client = await asAdmin<ClientWithKey>(subjects.clients.create, {
      clientName: 'Revoke GmbH',
      tier: 'starter',
    });
    await expect(asAdmin<ApiKeyStatus>(subjects.clients.keyStatus, { clientId: client.id })).resolves.toMatchObject({
      status: 'active',
      prefix: client.api_key.slice(0, 8),
    });
    const events = stack.events(subjects.clients.keyRevoked);
    const revoked = await asAdmin<ApiKeyStatus>(subjects.clients.revokeKey, { clientId: client.id });
    expect(revoked).toMatchObject({ status: 'revoked', prefix: null });
    expect((await stack.fail(subjects.clients.resolveKey, { keyHash: sha256(client.api_key) })).code).toBe(
      'INVALID_API_KEY',
    );
    await eventually(
      () => events.received,
      (r) => r.length === 1,
    );
    events.stop();
    const fresh = await asAdmin<ClientWithKey>(subjects.clients.regenerateKey, { clientId: client.id });
    await expect(resolve(fresh.api_key)).resolves.toMatchObject({ clientId: client.id });
  });

  it('validates thresholds with the joined messages, saves them, and resets to global with null', async () => {
    const client = await asAdmin<ClientWithKey>(subjects.clients.create, {
      clientName: 'Thresholds plc',
      tier: 'small',
    });
    const bad = await stack.fail(subjects.clients.updateThresholds, {
      accessToken: admin.access_token,
      clientId: client.id,
      threshold_config: {
        HIGH_SCORE: 0.5,
        MEDIUM_SCORE: 0.7,
        DB_SIM_THRESHOLD: 1.5,
        TRIGRAM_HITS_MIN: 11,
        LEV_DISTANCE_MAX: 0,
      },
    });
    expect(bad.code).toBe('VALIDATION_FAILED');
    expect(bad.message).toBe(
      'Validation Error: HIGH_SCORE must be greater than MEDIUM_SCORE, DB_SIM_THRESHOLD must be between 0 and 1, TRIGRAM_HITS_MIN must be between 1 and 10, LEV_DISTANCE_MAX must be between 1 and 20',
    );
    const custom = {
      HIGH_SCORE: 0.9,
      MEDIUM_SCORE: 0.7,
      DB_SIM_THRESHOLD: 0.5,
      TRIGRAM_HITS_MIN: 2,
      LEV_DISTANCE_MAX: 4,
    };
    const saved = await asAdmin<Client>(subjects.clients.updateThresholds, {
      clientId: client.id,
      threshold_config: custom,
    });
    expect(saved.threshold_config).toEqual(custom);
    await expect(resolve(client.api_key)).resolves.toMatchObject({ thresholdConfig: custom, thresholds: custom });
    const reset = await asAdmin<Client>(subjects.clients.updateThresholds, {
      clientId: client.id,
      threshold_config: null,
    });
    expect(reset.threshold_config).toBeNull();
    await expect(resolve(client.api_key)).resolves.toMatchObject({
      thresholdConfig: null,
      thresholds: DEFAULT_THRESHOLDS,
    });
  });

  it('keeps client administration to admins', async () => {
    const user = await userSession(stack, 'nosy@example.com');
    for (const subject of [subjects.clients.list, subjects.clients.create, subjects.clients.keyStatus]) {
      const error = await stack.fail(subject, {
        accessToken: user.access_token,
        clientId: '00000000-0000-4000-8000-000000000000',
        clientName: 'x',
        tier: 'small',
      });
      expect(error.code).toBe('FORBIDDEN');
    }
    expect((await stack.fail(subjects.clients.list, {})).code).toBe('VALIDATION_FAILED');
  });

  it('deletes a client: its key stops working and the event says so', async () => {
    const client = await asAdmin<ClientWithKey>(subjects.clients.create, { clientName: 'Gone Soon', tier: 'small' });
    const events = stack.events(subjects.clients.keyRevoked);
    await asAdmin(subjects.clients.delete, { clientId: client.id });
    expect((await stack.fail(subjects.clients.resolveKey, { keyHash: sha256(client.api_key) })).code).toBe(
      'INVALID_API_KEY',
    );
    const { value: [event] } = await eventually(
      () => events.received,
      (r) => r.length >= 1,
    );
    events.stop();
    expect(event).toMatchObject({ clientId: client.id, reason: 'client_deleted' });
    expect(
      (await stack.fail(subjects.clients.keyStatus, { accessToken: admin.access_token, clientId: client.id })).code,
    ).toBe('NOT_FOUND');
  });

  it('provisions one client per contact email for billing, attaching the user', async () => {
    const user = await userSession(stack, 'buyer@example.com');
    const first = await stack.call<ProvisionClientReply>(subjects.clients.provision, {
      clientName: 'Buyer Co',
      contactEmail: 'buyer@example.com',
      tier: 'small',
      userId: user.user.id,
    });
    expect(first.created).toBe(true);
    expect(first.api_key).toMatch(/^[0-9a-f]{64}$/);
    const again = await stack.call<ProvisionClientReply>(subjects.clients.provision, {
      clientName: 'Buyer Co',
      contactEmail: 'buyer@example.com',
      tier: 'small',
      userId: user.user.id,
    });
    expect(again).toMatchObject({ created: false, client: { id: first.client.id } });
    expect(again.api_key).toBeUndefined();
    const upgraded = await stack.call<Client>(subjects.clients.updateSubscription, {
      clientId: first.client.id,
      tier: 'large',
      subscriptionStatus: 'past_due',
    });
    expect(upgraded).toMatchObject({ tier: 'large', quota_month: 100_000, subscription_status: 'past_due' });
    await expect(stack.call<Client>(subjects.clients.get, { clientId: first.client.id })).resolves.toMatchObject({
      tier: 'large',
      usage_month: 0,
    });
    expect((await stack.fail(subjects.clients.get, { clientId: '00000000-0000-4000-8000-000000000000' })).code).toBe(
      'NOT_FOUND',
    );
    await expect(stack.call(subjects.clients.notificationSettings, { clientId: first.client.id })).resolves.toEqual(
      DEFAULT_NOTIFICATION_SETTINGS,
    );
    expect(
      (await stack.fail(subjects.clients.notificationSettings, { clientId: '00000000-0000-4000-8000-000000000000' }))
        .code,
    ).toBe('NOT_FOUND');
  });

  it('keeps the billing period: a later one resets usage once, a copy of an older period is ignored, resolve-key answers the current one', async () => {
    const { client, api_key } = await stack.call<ProvisionClientReply>(subjects.clients.provision, {
      clientName: 'Period Co',
      contactEmail: 'period@example.com',
      tier: 'starter',
    });
    const update = (changes: object) =>
      stack.call<Client>(subjects.clients.updateSubscription, { clientId: client.id, ...changes });
    // Without a subscription period: the UTC calendar month.
    const now = new Date();
    await expect(resolve(api_key!)).resolves.toMatchObject({
      periodStart: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
      periodEnd: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
    });

    const day = 86_400_000;
    const first = {
      start: new Date(Date.now() - 10 * day).toISOString(),
      end: new Date(Date.now() + 20 * day).toISOString(),
    };
    await update({ usageMonth: 42 });
    await expect(update({ period: first })).resolves.toMatchObject({ usage_month: 0 });
    await expect(resolve(api_key!)).resolves.toMatchObject({
      periodStart: first.start,
      periodEnd: first.end,
      usageMonth: 0,
    });
    await expect(update({ usageMonth: 300, usagePeriodStart: first.start })).resolves.toMatchObject({
      usage_month: 300,
    });
    // The same period again (a redelivered renewal) or an older one resets nothing.
    await expect(update({ period: first })).resolves.toMatchObject({ usage_month: 300 });
    await expect(
      update({ period: { start: new Date(Date.now() - 40 * day).toISOString(), end: first.start } }),
    ).resolves.toMatchObject({ usage_month: 300 });
    await expect(resolve(api_key!)).resolves.toMatchObject({ periodStart: first.start });

    // Renewal: usage starts again, once; a usage copy of the old period that raced it is ignored.
    const second = { start: first.end, end: new Date(Date.parse(first.end) + 30 * day).toISOString() };
    await expect(update({ period: second })).resolves.toMatchObject({ usage_month: 0 });
    await expect(update({ usageMonth: 310, usagePeriodStart: first.start })).resolves.toMatchObject({ usage_month: 0 });
    await expect(update({ usageMonth: 7, usagePeriodStart: second.start })).resolves.toMatchObject({ usage_month: 7 });
    await expect(update({ period: second })).resolves.toMatchObject({ usage_month: 7 });

    // A period that has ended without a renewal from billing yet: its monthly successor.
    const ended = {
      start: new Date(Date.now() - 31 * day).toISOString(),
      end: new Date(Date.now() - 60_000).toISOString(),
    };
    await stack.db.query(
      `UPDATE clients SET period_start = $2, period_end = $3, usage_period_start = $2, usage_month = 900 WHERE id = $1`,
      [client.id, ended.start, ended.end],
    );
    const rolled = await resolve(api_key!);
    expect(rolled.periodStart).toBe(ended.end);
    // The 900 counted the period that ended: nothing is used of this one yet.
    expect(rolled.usageMonth).toBe(0);
    await expect(stack.call<Client>(subjects.clients.get, { clientId: client.id })).resolves.toMatchObject({
      usage_month: 0,
    });
    expect(Date.parse(rolled.periodEnd) - Date.parse(ended.end)).toBeGreaterThanOrEqual(28 * day);
    // The gateway's copy for that successor sticks, and billing's renewal to the same start keeps it.
    await expect(update({ usageMonth: 3, usagePeriodStart: ended.end })).resolves.toMatchObject({ usage_month: 3 });
    await expect(update({ period: { start: rolled.periodStart, end: rolled.periodEnd } })).resolves.toMatchObject({
      usage_month: 3,
    });

    expect(
      (
        await stack.fail(subjects.clients.updateSubscription, {
          clientId: client.id,
          period: { start: second.end, end: second.start },
        })
      ).code,
    ).toBe('VALIDATION_FAILED');
    expect(
      (await stack.fail(subjects.clients.updateSubscription, { clientId: client.id, usagePeriodStart: second.start }))
        .code,
    ).toBe('VALIDATION_FAILED');
  });

  describe("settings of a client's own user", () => {
    let user: Session;
    let client: ClientWithKey;
    beforeAll(async () => {
      user = await userSession(stack, 'owner@example.com');
      client = await asAdmin<ClientWithKey>(subjects.clients.create, {
        clientName: 'Owner Org',
        tier: 'large',
        contactEmail: 'owner@example.com',
      });
    });
    const asUser = <T>(subject: string, payload: object = {}) =>
      stack.call<T>(subject, { accessToken: user.access_token, ...payload });

    it("reads and updates the profile of the caller's own client", async () => {
      await expect(asUser<Client>(subjects.clients.settings.getProfile)).resolves.toMatchObject({
        id: client.id,
        client_name: 'Owner Org',
      });
      const updated = await asUser<Client>(subjects.clients.settings.updateProfile, {
        client_name: 'Owner Org Ltd',
        contact_email: 'Billing@Owner.example',
      });
      expect(updated).toMatchObject({ client_name: 'Owner Org Ltd', contact_email: 'billing@owner.example' });
      // A smuggled client id is ignored: the client comes from the session.
      const other = await asAdmin<ClientWithKey>(subjects.clients.create, {
        clientName: 'Someone Else',
        tier: 'small',
      });
      await expect(
        asUser<Client>(subjects.clients.settings.getProfile, { clientId: other.id, client_id: other.id }),
      ).resolves.toMatchObject({ id: client.id });
    });

    it('has the spec notification defaults and saves changes', async () => {
      await expect(asUser<NotificationSettings>(subjects.clients.settings.getNotifications)).resolves.toEqual(
        DEFAULT_NOTIFICATION_SETTINGS,
      );
      const saved = await asUser<NotificationSettings>(subjects.clients.settings.updateNotifications, {
        weekly_reports: true,
        email_alerts: false,
      });
      expect(saved).toEqual({ ...DEFAULT_NOTIFICATION_SETTINGS, weekly_reports: true, email_alerts: false });
      await expect(asUser<NotificationSettings>(subjects.clients.settings.getNotifications)).resolves.toEqual(saved);
    });

    it('summarises the account and regenerates its own key, mailing the contact', async () => {
      const summary = await asUser<AccountSummary>(subjects.clients.settings.accountSummary);
      expect(summary).toMatchObject({
        client: { id: client.id },
        user: { email: 'owner@example.com' },
        usage_percent: 0,
        api_key: { status: 'active' },
      });
      const regenerated = await asUser<ClientWithKey>(subjects.clients.settings.regenerateKey);
      expect((await stack.fail(subjects.clients.resolveKey, { keyHash: sha256(client.api_key) })).code).toBe(
        'INVALID_API_KEY',
      );
      await expect(resolve(regenerated.api_key)).resolves.toMatchObject({ clientId: client.id });
      const [mail] = await stack.waitForMail('billing@owner.example', 1);
      expect(mail!.text).toContain(regenerated.api_key.slice(0, 8));
      expect(mail!.text).not.toContain(regenerated.api_key);
    });

    it('answers 404 to a user without a client', async () => {
      const lonely = await userSession(stack, 'lonely@example.com');
      expect((await stack.fail(subjects.clients.settings.getProfile, { accessToken: lonely.access_token })).code).toBe(
        'NOT_FOUND',
      );
    });
  });
});
