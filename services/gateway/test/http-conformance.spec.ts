// Issue #35: the HTTP behaviours an integrator's client library relies on, against the real
// gateway, auth and screening: unknown fields refused with their pointer, 405 with Allow, CORS
// preflight, gzip, a cacheable list catalogue, and no server file path in any answer.
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { ApiStack } from './api-stack.js';
import { SERVICES_DIR } from './stack.js';

jest.setTimeout(180_000);

describe('HTTP conformance', () => {
  const stack = new ApiStack();
  let app: INestApplication;
  let key: string;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    await stack.start();
    app = await stack.gateway();
    ({ key } = await stack.client('large'));
  });
  afterAll(() => stack.stop());

  it('refuses a body field the route does not take, with its JSON pointer, instead of ignoring it', async () => {
    // A misspelled date of birth would otherwise screen the name alone.
    const misspelled = await http()
      .post('/api/v1/screen')
      .set('x-api-key', key)
      .send({ name: 'Vladimir Putin', dob: '1952-10-07' });
    expect(misspelled.status).toBe(400);
    expect(misspelled.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(misspelled.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ pointer: '/dob' }] });
    const bulk = await http()
      .post('/api/v1/bulk-screen')
      .set('x-api-key', key)
      .send({ names: ['Vladimir Putin'], limits: 3 });
    expect([bulk.status, bulk.body.errors]).toEqual([
      400,
      [{ pointer: '/limits', detail: 'is not a field of this request' }],
    ]);
    const signup = await http().post('/auth/v1/signup').send({
      full_name: 'A',
      email: 'unknown-field@example.com',
      password: 'Correct-Horse-9',
      confirm_password: 'Correct-Horse-9',
      accepted_terms: true,
      is_admin: true,
    });
    expect([signup.status, signup.body.errors?.[0]?.pointer]).toEqual([400, '/is_admin']);
    // The right fields still screen.
    const ok = await http()
      .post('/api/v1/screen')
      .set('x-api-key', key)
      .send({ name: 'Vladimir Putin', dateOfBirth: '1952-10-07' });
    expect(ok.status).toBe(200);
  });

  it('answers a method a route does not take with 405 and Allow, an unknown path with 404', async () => {
    const get = await http().get('/api/v1/screen').set('x-api-key', key);
    expect([get.status, get.body.code, get.headers.allow]).toEqual([405, 'METHOD_NOT_ALLOWED', 'OPTIONS, POST']);
    expect(get.headers['content-type']).toMatch(/^application\/problem\+json/);
    const del = await http().delete('/api/v1/lists').set('x-api-key', key);
    expect([del.status, del.headers.allow]).toEqual([405, 'GET, HEAD, OPTIONS']);
    const options = await http().options('/api/v1/lists');
    expect([options.status, options.headers.allow]).toEqual([204, 'GET, HEAD, OPTIONS']);
    const nowhere = await http().get('/api/v1/nowhere').set('x-api-key', key);
    expect([nowhere.status, nowhere.body.code, nowhere.headers.allow]).toEqual([404, 'ROUTE_NOT_FOUND', undefined]);
  });

  it('answers a CORS preflight from a configured origin, and not from another', async () => {
    const cors = await stack.gateway({ CORS_ORIGINS: 'https://bank.example' });
    const preflight = (origin: string) =>
      request(cors.getHttpServer())
        .options('/api/v1/screen')
        .set({ origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key' });
    const allowed = await preflight('https://bank.example');
    expect(allowed.status).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://bank.example');
    expect(allowed.headers['access-control-allow-methods']).toContain('POST');
    const other = await preflight('https://elsewhere.example');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('gzips a JSON answer above 1 KiB for a caller that accepts it', async () => {
    const gzipped = await http().get('/api/v1/lists').set({ 'x-api-key': key, 'accept-encoding': 'gzip' });
    expect([gzipped.status, gzipped.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect(gzipped.body.lists.length).toBeGreaterThan(0);
    const plain = await http().get('/api/v1/lists').set({ 'x-api-key': key, 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toEqual(gzipped.body);
  });

  it('lets a client cache the list catalogue: ETag, Cache-Control and 304 on If-None-Match', async () => {
    const first = await http().get('/api/v1/lists').set('x-api-key', key);
    expect(first.status).toBe(200);
    expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, max-age=60');
    const again = await http().get('/api/v1/lists').set({ 'x-api-key': key, 'if-none-match': first.headers.etag! });
    expect([again.status, again.text, again.headers.etag]).toEqual([304, '', first.headers.etag]);
    const stale = await http().get('/api/v1/lists').set({ 'x-api-key': key, 'if-none-match': '"something-else"' });
    expect(stale.status).toBe(200);
  });

  it('shows no server file path in the list catalogue', async () => {
    const lists = await http().get('/api/v1/lists').set('x-api-key', key);
    expect(lists.status).toBe(200);
    expect(lists.text).not.toContain(SERVICES_DIR);
    for (const list of lists.body.lists as Array<{ location: string }>)
      expect(list.location).toMatch(/^(https?:\/\/|[^/\\]+$)/);
  });
});
