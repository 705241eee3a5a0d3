import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { parseConfig } from '@vigil/platform';
import { TestStack } from '@vigil/platform/testing';
import request from 'supertest';
import { envSchema } from '../src/env.js';
import { createGatewayApp } from '../src/http/create-app.js';
import { SERVICES_DIR, eventually, mailTextTo, testEnv } from './stack.js';

jest.setTimeout(60_000);

const PASSWORD = 'gateway-test-passphrase';

/**
 * Issue #33, "one lockout for everyone", end to end: behind a proxy the gateway listed in
 * TRUSTED_PROXIES (loopback here, the ingress in production), auth's sign-in limits see each
 * client's own address, so guesses from one client do not lock the owner out from another.
 */
describe('sign-in limits behind a trusted proxy', () => {
  const auth = new TestStack(SERVICES_DIR, {
    env: { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1', WEB_URL: 'http://web.test' },
  });
  let app: INestApplication;
  const signIn = (password: string, client: string) =>
    request(app.getHttpServer())
      .post('/auth/v1/token?grant_type=password')
      .set('x-forwarded-for', client)
      .send({ email: 'owner@example.com', password });

  beforeAll(async () => {
    await auth.startNats();
    await auth.migrate('auth');
    auth.spawn('auth');
    const env = { ...testEnv, ...auth.busEnv('gateway'), LOG_LEVEL: 'warn', TRUSTED_PROXIES: 'loopback' };
    app = await createGatewayApp(parseConfig(envSchema, env));
    await app.init();
    const http = () => request(app.getHttpServer());
    await eventually(
      () => http().get('/auth/v1/.well-known/jwks.json'),
      (r) => r.status === 200,
      20_000,
    );
    await http()
      .post('/auth/v1/signup')
      .send({
        full_name: 'Owner',
        email: 'owner@example.com',
        password: PASSWORD,
        confirm_password: PASSWORD,
        accepted_terms: true,
      });
    const { value: mail } = await eventually(
      () => mailTextTo(auth.schema('auth'), 'owner@example.com'),
      (text) => text !== undefined,
      5_000,
    );
    await http()
      .post('/auth/v1/verify')
      .send({ type: 'signup', token: /token=([A-Za-z0-9_-]+)/.exec(mail!)![1] });
  });

  afterAll(async () => {
    await app?.close();
    await auth.stop();
  });

  it('locks out the client that guessed, and lets the owner in from another', async () => {
    for (let i = 0; i < 10; i++) expect((await signIn(`wrong-${i}-password`, '203.0.113.9')).status).toBe(401);
    const guesser = await signIn(PASSWORD, '203.0.113.9');
    expect(guesser.status).toBe(429);
    expect(guesser.body.code).toBe('RATE_LIMITED');
    const owner = await signIn(PASSWORD, '198.51.100.7');
    expect(owner.status).toBe(200);
    expect(owner.body.user.email).toBe('owner@example.com');
  });
});
