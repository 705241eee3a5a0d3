import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { parseConfig } from '@vigil/platform';
import { createHash } from 'node:crypto';
import request from 'supertest';
import { envSchema } from '../src/env.js';
import { createGatewayApp } from '../src/http/create-app.js';
import { TestStack, enrolAuthenticator, totpCode } from '@vigil/platform/testing';
import type { Session } from '@vigil/proto';
import { SERVICES_DIR, eventually, httpFactorCalls, mailTextTo, testEnv } from './stack.js';

jest.setTimeout(60_000);

const PASSWORD = 'gateway-test-passphrase';

describe('gateway auth, settings and client-administration routes against the real auth service', () => {
  const auth = new TestStack(SERVICES_DIR, {
    env: {
      ARGON2_MEMORY_KIB: '1024',
      ARGON2_TIME_COST: '1',
      WEB_URL: 'http://web.test',
      ADMIN_EMAILS: 'chief@vigil.dev',
    },
  });
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  const bodies: string[] = [];
  const record = (res: request.Response) => {
    bodies.push(res.text);
    return res;
  };

  beforeAll(async () => {
    await auth.startNats();
    await auth.migrate('auth');
    auth.spawn('auth');
    app = await createGatewayApp(parseConfig(envSchema, { ...testEnv, ...auth.busEnv('gateway'), LOG_LEVEL: 'warn' }));
    await app.init();
    await eventually(
      () => http().get('/auth/v1/.well-known/jwks.json'),
      (r) => r.status === 200,
      20_000,
    );
  });

  afterAll(async () => {
    await app?.close();
    await auth.stop();
  });

  let adminSecret = '';
  /**
   * The admin signs in as the console makes them: password, then the authenticator's code. Each
   * 30 s step's code is accepted once and the neighbouring steps too, so a later step's code is
   * tried when this one was already spent (by the enrolment, or the previous test).
   */
  async function adminWithCode(): Promise<Session> {
    const password1 = (
      await http().post('/auth/v1/token?grant_type=password').send({ email: 'chief@vigil.dev', password: PASSWORD })
    ).body as Session;
    const bearer = `Bearer ${password1.access_token}`;
    const factorId = password1.user.factors.find((f) => f.status === 'verified')!.id;
    for (const offset of [0, 30_000, -30_000]) {
      const challenge = await http().post(`/auth/v1/factors/${factorId}/challenge`).set('authorization', bearer);
      const verified = await http()
        .post(`/auth/v1/factors/${factorId}/verify`)
        .set('authorization', bearer)
        .send({ challenge_id: challenge.body.id, code: totpCode(adminSecret, Date.now() + offset) });
      if (verified.status === 200) return verified.body as Session;
    }
    throw new Error('no code of the authenticator was accepted');
  }

  async function confirmedUser(email: string) {
    record(
      await http()
        .post('/auth/v1/signup')
        .send({ full_name: 'Web User', email, password: PASSWORD, confirm_password: PASSWORD, accepted_terms: true }),
    );
    const { value: mail } = await eventually(
      () => mailTextTo(auth.schema('auth'), email),
      (text) => text !== undefined,
      5_000,
    );
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail!)![1];
    return record(await http().post('/auth/v1/verify').send({ type: 'signup', token })).body;
  }

  it('signs up, confirms, signs in with grant_type=password and refreshes, answering the Session shape', async () => {
    const signup = await http().post('/auth/v1/signup').send({
      full_name: 'Web User',
      email: 'web@example.com',
      password: PASSWORD,
      confirm_password: 'different-one',
      accepted_terms: true,
    });
    expect(signup.status).toBe(400);
    expect(signup.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(signup.body.errors).toEqual([{ pointer: '/confirm_password', detail: 'Passwords do not match.' }]);

    await confirmedUser('web@example.com');
    const token = record(
      await http().post('/auth/v1/token?grant_type=password').send({ email: 'web@example.com', password: PASSWORD }),
    );
    expect(token.status).toBe(200);
    expect(token.headers['cache-control']).toBe('no-store');
    expect(Object.keys(token.body).sort()).toEqual([
      'access_token',
      'expires_at',
      'expires_in',
      'refresh_token',
      'token_type',
      'user',
    ]);
    expect(Object.keys(token.body.user)).toEqual(
      expect.arrayContaining(['id', 'email', 'created_at', 'identities', 'factors']),
    );

    const refreshed = record(
      await http().post('/auth/v1/token?grant_type=refresh_token').send({ refresh_token: token.body.refresh_token }),
    );
    expect(refreshed.status).toBe(200);
    // Once its successor has been used too, the first token coming back is a reuse (not a lost answer).
    const next = record(
      await http()
        .post('/auth/v1/token?grant_type=refresh_token')
        .send({ refresh_token: refreshed.body.refresh_token }),
    );
    expect(next.status).toBe(200);
    const reuse = await http()
      .post('/auth/v1/token?grant_type=refresh_token')
      .send({ refresh_token: token.body.refresh_token });
    expect(reuse.status).toBe(401);
    expect(reuse.body.code).toBe('REFRESH_TOKEN_REUSED');

    const me = await http()
      .get('/auth/v1/user')
      .set(
        'authorization',
        `Bearer ${(await http().post('/auth/v1/token?grant_type=password').send({ email: 'web@example.com', password: PASSWORD })).body.access_token}`,
      );
    expect(me.status).toBe(200);
    expect(me.body.email).toBe('web@example.com');
    const anonymous = await http().get('/auth/v1/user');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('UNAUTHENTICATED');
  });

  it('answers the 11th bad password with 429 and a Retry-After header', async () => {
    await confirmedUser('locked@example.com');
    for (let i = 0; i < 10; i++) {
      const res = await http()
        .post('/auth/v1/token?grant_type=password')
        .send({ email: 'locked@example.com', password: `wrong-${i}-password` });
      expect(res.status).toBe(401);
    }
    const locked = await http()
      .post('/auth/v1/token?grant_type=password')
      .send({ email: 'locked@example.com', password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(locked.body.code).toBe('RATE_LIMITED');
  });

  it('gives the same forgot-password answer for any email', async () => {
    const known = await http().post('/auth/v1/recover').send({ email: 'web@example.com' });
    const unknown = await http().post('/auth/v1/recover').send({ email: 'nobody@example.com' });
    expect(known.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect(known.body.message).toBe('If an account with that email exists, you will receive a password reset link.');
  });

  it('gives nobody the reset link through the dev mailbox: recover → mailbox → verify does not take over an account', async () => {
    await http().post('/auth/v1/recover').send({ email: 'web@example.com' });
    await eventually(
      () => mailTextTo(auth.schema('auth'), 'web@example.com'),
      (text) => /reset/i.test(text ?? ''),
      5_000,
    );
    // This auth runs as a container would (no VIGIL_DEV_STACK): the mailbox does not exist, with or without a session.
    const anonymous = await http().get('/auth/v1/dev/mailbox').query({ to: 'web@example.com' });
    expect([anonymous.status, anonymous.body.code, anonymous.body.messages]).toEqual([404, 'NOT_FOUND', undefined]);
    const user = await http()
      .post('/auth/v1/token?grant_type=password')
      .send({ email: 'web@example.com', password: PASSWORD });
    const signedIn = await http().get('/auth/v1/dev/mailbox').set('authorization', `Bearer ${user.body.access_token}`);
    expect([signedIn.status, signedIn.body.messages]).toEqual([404, undefined]);
  });

  it('runs client administration for an admin, with the spec messages', async () => {
    await auth.sql(
      'auth',
      `INSERT INTO invitation_codes (code_hash, expires_at) VALUES ($1, now() + interval '1 hour')`,
      [createHash('sha256').update('GATEWAYCODE1').digest('hex')],
    );
    const created = await http().post('/auth/v1/signup').send({
      full_name: 'Chief',
      email: 'chief@vigil.dev',
      password: PASSWORD,
      confirm_password: PASSWORD,
      accepted_terms: true,
      invitation_code: 'GATEWAY-CODE-1',
    });
    expect(created.body).toEqual({ message: 'Admin account created! You can now sign in directly.', admin: true });
    const password1 = (
      await http().post('/auth/v1/token?grant_type=password').send({ email: 'chief@vigil.dev', password: PASSWORD })
    ).body;
    // Issue #33: a password alone opens no admin route; with no authenticator yet the console is told to enrol one.
    const unenrolled = await http().get('/api/client/clients').set('authorization', `Bearer ${password1.access_token}`);
    expect([unenrolled.status, unenrolled.body.code]).toEqual([403, 'MFA_ENROLMENT_REQUIRED']);
    expect(unenrolled.headers['content-type']).toMatch(/application\/problem\+json/);
    const enrolled = await enrolAuthenticator<Session>(httpFactorCalls(http), password1.access_token);
    adminSecret = enrolled.secret;
    const bearer = `Bearer ${enrolled.session.access_token}`;
    expect((await http().get('/api/client/clients').set('authorization', bearer)).status).toBe(200);

    const incomplete = await http()
      .post('/api/client/clients/create')
      .set('authorization', bearer)
      .send({ clientName: '  ' });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.errors.map((e: { detail: string }) => e.detail)).toContain(
      'Please fill in all required fields',
    );

    const client = record(
      await http()
        .post('/api/client/clients/create')
        .set('authorization', bearer)
        .send({ clientName: 'Gateway Bank', tier: 'large' }),
    );
    expect(client.status).toBe(201);
    expect(client.body).toMatchObject({ client_name: 'Gateway Bank', tier: 'large', quota_month: 100_000 });
    expect(client.body.api_key).toMatch(/^[0-9a-f]{64}$/);
    const key = client.body.api_key as string;

    const found = record(await http().get(`/api/client/clients/api-key/${key}`).set('authorization', bearer));
    expect(found.status).toBe(200);
    expect(found.body.id).toBe(client.body.id);
    const missing = await http()
      .get(`/api/client/clients/api-key/${'0'.repeat(64)}`)
      .set('authorization', bearer);
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe('Client not found with this API key');

    const badThresholds = await http()
      .put(`/api/client/clients/${client.body.id}/thresholds`)
      .set('authorization', bearer)
      .send({
        threshold_config: {
          HIGH_SCORE: 0.5,
          MEDIUM_SCORE: 0.6,
          DB_SIM_THRESHOLD: 0.6,
          TRIGRAM_HITS_MIN: 1,
          LEV_DISTANCE_MAX: 3,
        },
      });
    expect(badThresholds.status).toBe(400);
    expect(badThresholds.body.detail).toBe('Validation Error: HIGH_SCORE must be greater than MEDIUM_SCORE');
    // Issue #32: a client may be pinned to an older matching algorithm, by a registered name only.
    const config = {
      HIGH_SCORE: 0.85,
      MEDIUM_SCORE: 0.6,
      DB_SIM_THRESHOLD: 0.45,
      TRIGRAM_HITS_MIN: 2,
      LEV_DISTANCE_MAX: 2,
    };
    const pinned = await http()
      .put(`/api/client/clients/${client.body.id}/thresholds`)
      .set('authorization', bearer)
      .send({ threshold_config: { ...config, ALGORITHM: 'vigil-v2' } });
    expect([pinned.status, pinned.body.threshold_config?.ALGORITHM]).toEqual([200, 'vigil-v2']);
    const unknownAlgorithm = await http()
      .put(`/api/client/clients/${client.body.id}/thresholds`)
      .set('authorization', bearer)
      .send({ threshold_config: { ...config, ALGORITHM: 'vigil-v9' } });
    expect([unknownAlgorithm.status, unknownAlgorithm.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(unknownAlgorithm.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(
      '/threshold_config/ALGORITHM',
    );
    const reset = await http()
      .put(`/api/client/clients/${client.body.id}/thresholds`)
      .set('authorization', bearer)
      .send({ threshold_config: null });
    expect(reset.status).toBe(200);
    expect(reset.body.threshold_config).toBeNull();

    const list = record(await http().get('/api/client/clients').set('authorization', bearer));
    expect(list.body.clients.map((c: { id: string }) => c.id)).toContain(client.body.id);
    const revoked = record(
      await http().post(`/api/client/clients/${client.body.id}/revoke-key`).set('authorization', bearer),
    );
    expect(revoked.body.status).toBe('revoked');
    const status = record(
      await http().get(`/api/client/clients/${client.body.id}/api-key-status`).set('authorization', bearer),
    );
    expect(status.body.status).toBe('revoked');

    // The key was in the creation answer only.
    expect(bodies.filter((b) => b.includes(key))).toHaveLength(1);

    // A regular user gets 403 on the same routes.
    const user = (
      await http().post('/auth/v1/token?grant_type=password').send({ email: 'web@example.com', password: PASSWORD })
    ).body;
    const forbidden = await http().get('/api/client/clients').set('authorization', `Bearer ${user.access_token}`);
    expect(forbidden.status).toBe(403);
  });

  it('asks an enrolled admin signing in with a password for the code before any admin route', async () => {
    const password1 = (
      await http().post('/auth/v1/token?grant_type=password').send({ email: 'chief@vigil.dev', password: PASSWORD })
    ).body;
    for (const path of ['/api/client/clients', '/api/client/admin/overview']) {
      const refused = await http().get(path).set('authorization', `Bearer ${password1.access_token}`);
      expect([path, refused.status, refused.body.code]).toEqual([path, 403, 'MFA_REQUIRED']);
    }
    // Once a factor is verified, a password-only session cannot add another (an attacker with the password
    // cannot enrol their own authenticator), nor remove the admin's last one.
    const another = await http()
      .post('/auth/v1/factors')
      .set('authorization', `Bearer ${password1.access_token}`)
      .send({ factor_type: 'totp' });
    expect([another.status, another.body.code]).toEqual([403, 'MFA_REQUIRED']);
    const admin = await adminWithCode();
    expect((await http().get('/api/client/clients').set('authorization', `Bearer ${admin.access_token}`)).status).toBe(
      200,
    );
    const factorId = admin.user.factors.find((f) => f.status === 'verified')!.id;
    const last = await http()
      .delete(`/auth/v1/factors/${factorId}`)
      .set('authorization', `Bearer ${admin.access_token}`);
    expect([last.status, last.body.code]).toEqual([403, 'FORBIDDEN']);
  });

  it("serves settings for the caller's own client", async () => {
    const user = (
      await http().post('/auth/v1/token?grant_type=password').send({ email: 'web@example.com', password: PASSWORD })
    ).body;
    const noClient = await http().get('/api/settings/profile').set('authorization', `Bearer ${user.access_token}`);
    expect(noClient.status).toBe(404);

    const admin = await adminWithCode();
    await http()
      .post('/api/client/clients/create')
      .set('authorization', `Bearer ${admin.access_token}`)
      .send({ clientName: 'Web Org', tier: 'small', contactEmail: 'web@example.com' });
    const bearer = `Bearer ${user.access_token}`;
    const profile = await http().get('/api/settings/profile').set('authorization', bearer);
    expect(profile.body).toMatchObject({ client_name: 'Web Org', tier: 'small' });
    const flags = await http().get('/api/settings/notification-settings').set('authorization', bearer);
    expect(flags.body).toEqual({
      email_alerts: true,
      quota_warnings: true,
      payment_failures: true,
      security_alerts: true,
      weekly_reports: false,
      monthly_reports: true,
    });
    const saved = await http()
      .put('/api/settings/notification-settings')
      .set('authorization', bearer)
      .send({ monthly_reports: false });
    expect(saved.body.monthly_reports).toBe(false);
    const summary = await http().get('/api/settings/account-summary').set('authorization', bearer);
    expect(summary.body).toMatchObject({ client: { client_name: 'Web Org' }, api_key: { status: 'active' } });
    const regenerated = await http().post('/api/settings/regenerate-api-key').set('authorization', bearer);
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.api_key).toMatch(/^[0-9a-f]{64}$/);
  });

  it('publishes the JWKS and says when Google sign-in is not configured', async () => {
    const jwks = await http().get('/auth/v1/.well-known/jwks.json');
    expect(jwks.body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwks.body.keys[0]).not.toHaveProperty('d');
    const google = await http().get('/auth/v1/authorize?provider=google');
    expect(google.status).toBe(503);
    expect(google.body.detail).toMatch(/not configured/);
  });
});
