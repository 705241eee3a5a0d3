// Found by `npm run test:security`: a body the gateway did not parse as JSON (text/plain, XML,
// multipart on a JSON route) or a JSON array reached the controllers as `{}`, so the route acted
// on defaults its caller never sent (PUT /api/monitoring/settings, /api/settings/notification-settings
// and POST /auth/v1/factors answered 200). Every route that reads a JSON body now refuses them.
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { ApiStack } from './api-stack.js';

jest.setTimeout(120_000);

describe('a JSON route takes only a JSON object', () => {
  const stack = new ApiStack();
  let app: INestApplication;
  let bearer: Record<string, string>;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    await stack.start(['auth', 'screening']);
    app = await stack.gateway();
    const member = await stack.member(app, 'large', 'media-type@example.com', 'media-type-passphrase');
    bearer = { authorization: `Bearer ${member.token}`, 'x-api-key': member.key };
  });

  afterAll(() => stack.stop());

  it.each([
    ['text/plain', '{"friendly_name":"Phone"}'],
    ['application/xml', '<friendly_name>Phone</friendly_name>'],
    ['application/x-www-form-urlencoded', 'friendly_name=Phone'],
    ['multipart/form-data; boundary=x', '--x--'],
  ])('POST /auth/v1/factors as %s is 415, and no factor is enrolled', async (type, body) => {
    const res = await http().post('/auth/v1/factors').set({ ...bearer, 'content-type': type }).send(body);
    expect([res.status, res.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const factors = await stack.sql('auth', 'SELECT count(*)::int AS n FROM mfa_factors');
    expect(factors[0]).toEqual({ n: 0 });
  });

  it.each([
    ['a JSON array', '[[[1]]]'],
    ['a deeply nested JSON array', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
  ])('POST /api/screen and POST /auth/v1/factors with %s are 400 VALIDATION_FAILED', async (_name, body) => {
    for (const path of ['/api/screen', '/auth/v1/factors']) {
      const res = await http().post(path).set({ ...bearer, 'content-type': 'application/json' }).send(body);
      expect([path, res.status, res.body.code]).toEqual([path, 400, 'VALIDATION_FAILED']);
    }
  });

  it('still takes a JSON object, and a POST without a body', async () => {
    const screened = await http().post('/api/screen').set(bearer).send({ name: 'Jane Doe' });
    expect(screened.status).toBe(200);
    const enrolled = await http().post('/auth/v1/factors').set(bearer);
    expect(enrolled.status).toBe(200);
  });
});
