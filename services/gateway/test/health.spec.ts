import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { parseConfig } from '@vigil/platform';
import request from 'supertest';
import { envSchema } from '../src/env.js';
import { createGatewayApp } from '../src/http/create-app.js';
import { TestStack } from '@vigil/platform/testing';
import { BACKEND_SERVICES, SERVICES_DIR, eventually, testEnv } from './stack.js';

jest.setTimeout(60_000);

describe('GET /health against the real services', () => {
  const services = new TestStack(SERVICES_DIR);
  let app: INestApplication;

  beforeAll(async () => {
    await services.startNats();
    await Promise.all(BACKEND_SERVICES.map((s) => services.migrate(s)));
    BACKEND_SERVICES.forEach((s) => services.spawn(s));
    app = await createGatewayApp(
      parseConfig(envSchema, { ...testEnv, ...services.busEnv('gateway'), LOG_LEVEL: 'warn', HEALTH_TIMEOUT_MS: '1000' }),
    );
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
    await services.stop();
  });

  const health = () => request(app.getHttpServer()).get('/health');

  it('lists all six services as up with their latency', async () => {
    const { value: res } = await eventually(health, (r) => r.status === 200, 20_000);
    expect(res.body.status).toBe('ok');
    expect(Object.keys(res.body.services).sort()).toEqual(['audit', 'auth', 'billing', 'gateway', 'monitoring', 'screening']);
    for (const service of Object.values<{ status: string; latencyMs: number }>(res.body.services)) {
      expect(service.status).toBe('up');
      expect(service.latencyMs).toBeGreaterThanOrEqual(0);
    }
    expect(res.body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('answers 503 naming a killed service within 5 s, and 200 again once it is back', async () => {
    await eventually(health, (r) => r.status === 200, 20_000);
    await services.kill('billing');
    const down = await eventually(health, (r) => r.status === 503, 5_000);
    expect(down.elapsedMs).toBeLessThan(5_000);
    expect(down.value.body.status).toBe('degraded');
    expect(down.value.body.services.billing.status).toBe('down');
    expect(down.value.body.services.audit.status).toBe('up');

    await services.restart('billing');
    const back = await eventually(health, (r) => r.status === 200, 20_000);
    expect(back.value.body.services.billing.status).toBe('up');
  });
});

describe('gateway HTTP errors are problem details', () => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await createGatewayApp(parseConfig(envSchema, { ...testEnv, LOG_LEVEL: 'silent' }));
    await app.init();
  });
  afterAll(() => app?.close());

  it('answers an unknown route with a 404 problem', async () => {
    const res = await request(app.getHttpServer()).get('/api/v1/nothing-here').set('x-request-id', 'req-123');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 404, code: 'ROUTE_NOT_FOUND', title: 'No such route', instance: '/api/v1/nothing-here', requestId: 'req-123' });
    expect(res.headers['x-request-id']).toBe('req-123');
  });

  it('answers malformed JSON with a 400 problem and no stack trace', async () => {
    const res = await request(app.getHttpServer()).post('/health').set('content-type', 'application/json').send('{"name": ');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_REQUEST');
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.js:\d+/);
  });

  it('answers a body over 1 MiB with 413', async () => {
    const res = await request(app.getHttpServer())
      .post('/health')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(1_100_000) }));
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('replaces a malformed request id instead of logging it', async () => {
    const res = await request(app.getHttpServer()).get('/livez').set('x-request-id', 'bad id\twith spaces');
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).not.toContain(' ');
  });
});
