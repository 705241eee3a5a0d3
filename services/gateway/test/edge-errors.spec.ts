// Issue #15, finding 8: framework and parser failures answered with the framework's own message
// in `detail` (`Unexpected end of JSON input`, `Failed to decode param …`, `unsupported charset …`).
// Every problem the edge produces itself is in our words, with a stable code.
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { parseConfig } from '@vigil/platform';
import request from 'supertest';
import { envSchema } from '../src/env.js';
import { createGatewayApp } from '../src/http/create-app.js';
import { testEnv } from './stack.js';

jest.setTimeout(60_000);

describe('edge errors are in our words', () => {
  let app: INestApplication;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    // No backend: every answer here comes from the gateway itself.
    app = await createGatewayApp(
      parseConfig(envSchema, { ...testEnv, LOG_LEVEL: 'error', BULK_WORKER: 'false', NATS_REQUEST_TIMEOUT_MS: '300' }),
    );
    await app.init();
  });

  afterAll(() => app?.close());

  const json = (body: string, headers: Record<string, string> = {}) =>
    http()
      .post('/api/v1/screen')
      .set({ 'content-type': 'application/json', ...headers })
      .send(body);

  it.each([
    [
      'a path that is not UTF-8',
      () => http().get('/api/sanctions/entity/%E0%A4%A'),
      400,
      'BAD_REQUEST',
      'The URL holds a percent-encoded part that is not UTF-8.',
    ],
    [
      'a JSON body that does not parse',
      () => json('{"name":'),
      400,
      'BAD_REQUEST',
      'The request body is not valid JSON.',
    ],
    [
      'a body in an unknown charset',
      () => json('{}', { 'content-type': 'application/json; charset=klingon' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'The request body encoding is not supported.',
    ],
    [
      'a body in a content encoding we do not take',
      () => json('{}', { 'content-encoding': 'br2' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'The request body encoding is not supported.',
    ],
    [
      'an unknown route',
      () => http().get('/api/nowhere'),
      404,
      'ROUTE_NOT_FOUND',
      'No route matches this method and path.',
    ],
  ])('%s', async (_what, send, status, code, detail) => {
    const res = await send();
    expect([res.status, res.body.code, res.body.detail]).toEqual([status, code, detail]);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  });
});
