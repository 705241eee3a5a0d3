// Issue #15, finding 2: a password-only (aal1) session of a user with a verified TOTP factor
// must be refused by every route the gateway judges itself, as the auth service refuses it
// (403 MFA_REQUIRED). The routes come from the controllers' metadata, so a new session route
// is covered without touching this file.
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import request from 'supertest';
import { ApiStack } from './api-stack.js';
import { gatewayRoutes, samplePath, type Route } from './route-table.js';

jest.setTimeout(180_000);

const PASSWORD = 'mfa-at-the-edge-passphrase';
const SESSION_KINDS = new Set(['session', 'dashboard', 'key-or-session', 'admin']);

const sessionRoutes = gatewayRoutes().filter((r) => r.credentials && SESSION_KINDS.has(r.credentials));
const families = [...new Set(sessionRoutes.map((r) => r.controller))].map(
  (controller) => [controller, sessionRoutes.filter((r) => r.controller === controller)] as const,
);

/** RFC 6238 with the authenticator-app defaults auth enrols (SHA-1, 6 digits, 30 s). */
function totpCode(base32: string, at = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of base32.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const secret = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', secret).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

describe('MFA at the gateway: aal2 is required once a factor is verified', () => {
  const stack = new ApiStack();
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  let key: string;
  let aal1: string;
  let aal2: string;
  let plainAal1: { key: string; token: string };

  function send(route: Pick<Route, 'method' | 'path'>, token: string, apiKey = key) {
    const agent = http();
    return agent[route.method](samplePath(route.path))
      .set({ authorization: `Bearer ${token}`, 'x-api-key': apiKey })
      .send(route.method === 'get' || route.method === 'delete' ? undefined : {});
  }

  beforeAll(async () => {
    await stack.start(['auth', 'screening']);
    app = await stack.gateway();
    const member = await stack.member(app, 'large', 'mfa-edge@example.com', PASSWORD);
    key = member.key;
    const bearer = { authorization: `Bearer ${member.token}` };
    const enrolled = await http().post('/auth/v1/factors').set(bearer).send({ friendly_name: 'Phone' });
    expect(enrolled.status).toBe(200);
    const challenge = await http().post(`/auth/v1/factors/${enrolled.body.id}/challenge`).set(bearer).send({});
    expect(challenge.status).toBe(200);
    const verified = await http()
      .post(`/auth/v1/factors/${enrolled.body.id}/verify`)
      .set(bearer)
      .send({ challenge_id: challenge.body.id, code: totpCode(enrolled.body.totp.secret) });
    expect(verified.status).toBe(200);
    aal2 = verified.body.access_token;
    // A fresh password sign-in: what an attacker holding only the password gets.
    const signedIn = await http()
      .post('/auth/v1/token?grant_type=password')
      .send({ email: 'mfa-edge@example.com', password: PASSWORD });
    expect(signedIn.status).toBe(200);
    aal1 = signedIn.body.access_token;
    plainAal1 = await stack.member(app, 'large', 'no-factor@example.com', PASSWORD);
  });

  afterAll(() => stack.stop());

  it('finds the session routes in the route table (logs, alerts, review, lists, screening, billing)', () => {
    const paths = sessionRoutes.map((r) => `${r.method} ${r.path}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'get /api/client/logs',
        'get /api/client/sanction-alerts',
        'get /api/sanctions/review',
        'get /api/client/lists',
        'post /api/screen',
        'post /api/upgrade/upgrade',
        'get /api/payment/subscription',
        'get /api/payment/client-by-email/:email',
      ]),
    );
  });

  describe.each(families)('%s', (_controller, routes) => {
    it.each(routes.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const))(
      '%s refuses a password-only session of an enrolled user with 403 MFA_REQUIRED',
      async (_name, route) => {
        const res = await send(route, aal1);
        expect([res.status, res.body.code]).toEqual([403, 'MFA_REQUIRED']);
        expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      },
    );
  });

  it('answers as the auth service does for the same token', async () => {
    const auth = await http().get('/auth/v1/sessions').set('authorization', `Bearer ${aal1}`);
    expect([auth.status, auth.body.code]).toEqual([403, 'MFA_REQUIRED']);
  });

  it('lets the same user in once the second factor is done, and a user without a factor at aal1', async () => {
    const logs = await send({ method: 'get', path: '/api/client/logs' }, aal2);
    expect(logs.status).toBe(200);
    const subscription = await send({ method: 'get', path: '/api/client/logs' }, plainAal1.token, plainAal1.key);
    expect(subscription.status).toBe(200);
  });
});
