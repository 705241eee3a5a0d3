import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { parseConfig } from '@vigil/platform';
import request from 'supertest';
import { envSchema } from '../src/env.js';
import { createGatewayApp } from '../src/http/create-app.js';
import { testEnv } from './stack.js';

/** Answered by the gateway itself: a document, a problem, the docs page. */
const PATHS = ['/openapi.json', '/no/such/route', '/docs'];

// Each case boots a whole gateway (Nest, Redis, NATS, Postgres): on a busy 2-core CI machine that
// took longer than jest's default 5 s.
jest.setTimeout(30_000);

describe('security headers at the gateway', () => {
  const apps: INestApplication[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const app = await createGatewayApp(
      parseConfig(envSchema, {
        ...testEnv,
        LOG_LEVEL: 'error',
        BULK_WORKER: 'false',
        NATS_REQUEST_TIMEOUT_MS: '300',
        ...env,
      }),
    );
    await app.init();
    apps.push(app);
    return app;
  };
  afterAll(() => Promise.all(apps.map((app) => app.close())));

  it.each(PATHS)(
    '%s: a Content-Security-Policy nobody may frame, nosniff, and no HSTS outside production',
    async (path) => {
      const res = await request((await start()).getHttpServer()).get(path);
      expect(res.headers['content-security-policy']).toMatch(/(^|;)\s*frame-ancestors 'none'(;|$)/);
      expect(res.headers['content-security-policy']).toMatch(/(^|;)\s*default-src 'self'(;|$)/);
      expect(res.headers['content-security-policy']).not.toMatch(/upgrade-insecure-requests/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    },
  );

  it('adds HSTS in production', async () => {
    const res = await request((await start({ NODE_ENV: 'production' })).getHttpServer()).get('/openapi.json');
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers['content-security-policy']).toMatch(/upgrade-insecure-requests/);
  });
});
