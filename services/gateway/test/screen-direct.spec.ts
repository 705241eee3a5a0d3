// POST /api/v1/screen is served from the request listener (http/direct-route.ts) rather than by
// Nest's router. Two gateway replicas on one real stack, one serving it directly and one leaving
// it to Nest, must answer every case alike: status, headers and body, failure by failure.
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request, { type Response, type Test } from 'supertest';
import { ApiStack } from './api-stack.js';

jest.setTimeout(120_000);

/** Headers that differ between two answers for reasons of their own (time, the window's count). */
const VARYING = new Set(['date', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after', 'connection', 'keep-alive']);

function headersOf(res: Response): Record<string, string> {
  return Object.fromEntries(
    Object.entries(res.headers as Record<string, string>).filter(([name]) => !VARYING.has(name.toLowerCase())),
  );
}

/** The answer less what differs between two screens of the same name (its log id and time). */
function answerOf(res: Response): unknown {
  const { screeningId, screenedAt, ...rest } = res.body as { screeningId: string; screenedAt: string };
  expect(screeningId).toEqual(expect.any(String));
  expect(screenedAt).toEqual(expect.any(String));
  return rest;
}

describe('POST /api/v1/screen served directly answers exactly as the Nest route', () => {
  const stack = new ApiStack();
  let direct: INestApplication;
  let nest: INestApplication;
  let sent = 0;

  beforeAll(async () => {
    await stack.start();
    direct = await stack.gateway();
    nest = await stack.gateway({}, { screenDirectly: false });
  });

  afterAll(() => stack.stop());

  /** The same request to both replicas, each with its own request id echoed in the answer. */
  async function both(build: (test: Test) => Test, path = '/api/v1/screen'): Promise<[Response, Response]> {
    const id = `same-${++sent}`;
    const send = (app: INestApplication) => build(request(app.getHttpServer()).post(path).set('x-request-id', id));
    return [await send(direct), await send(nest)];
  }

  function expectSameProblem([a, b]: [Response, Response], status: number, code: string) {
    expect(a.status).toBe(status);
    expect(a.body.code).toBe(code);
    expect(a.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(b.status).toBe(a.status);
    expect(b.body).toEqual(a.body);
    expect(headersOf(b)).toEqual(headersOf(a));
  }

  it('screens alike: the same answer, security headers, request id and RateLimit-* headers', async () => {
    const { key } = await stack.client('large');
    const [a, b] = await both((t) =>
      t.set('x-api-key', key).send({ name: 'Vladimir Putin', entityType: 'individual' }),
    );
    expect(a.status).toBe(200);
    expect(a.headers['x-request-id']).toBe(`same-${sent}`);
    expect(a.headers['ratelimit-limit']).toBe('500');
    expect(a.headers['content-security-policy']).toBeDefined();
    expect(b.status).toBe(200);
    expect(headersOf(b)).toEqual(headersOf(a));
    // Each replica counts the chunks of the window the other took as spent: only the range is common.
    for (const res of [a, b]) expect(Number(res.headers['ratelimit-remaining'])).toBeGreaterThan(480);
    expect(answerOf(b)).toEqual(answerOf(a));

    const [full, fullNest] = await both((t) =>
      t.query({ explain: 'full' }).set('x-api-key', key).send({ name: 'Kim Jong Un' }),
    );
    expect(full.status).toBe(200);
    expect(answerOf(fullNest)).toEqual(answerOf(full));
  });

  it('refuses a missing, malformed or unknown key alike (401 INVALID_API_KEY)', async () => {
    expectSameProblem(await both((t) => t.send({ name: 'Jane Doe' })), 401, 'INVALID_API_KEY');
    expectSameProblem(await both((t) => t.set('x-api-key', 'nope').send({ name: 'Jane Doe' })), 401, 'INVALID_API_KEY');
    expectSameProblem(
      await both((t) => t.set('x-api-key', 'f'.repeat(64)).send({ name: 'Jane Doe' })),
      401,
      'INVALID_API_KEY',
    );
  });

  it('refuses invalid bodies and queries alike (400)', async () => {
    const { key } = await stack.client('large');
    const keyed = (t: Test) => t.set('x-api-key', key);
    expectSameProblem(
      await both((t) => keyed(t).send({ name: '', dateOfBirth: '1952/10/07' })),
      400,
      'VALIDATION_FAILED',
    );
    expectSameProblem(
      await both((t) => keyed(t).query({ explain: 'everything' }).send({ name: 'Jane' })),
      400,
      'VALIDATION_FAILED',
    );
    expectSameProblem(await both((t) => keyed(t).send({ name: 'Jane\u0000Doe' })), 400, 'VALIDATION_FAILED');
    expectSameProblem(
      await both((t) => keyed(t).query({ q: 'a\u0000b' }).send({ name: 'Jane' })),
      400,
      'VALIDATION_FAILED',
    );
    expectSameProblem(await both((t) => keyed(t).send([{ name: 'Jane' }])), 400, 'VALIDATION_FAILED');
    expectSameProblem(
      await both((t) => keyed(t).set('content-type', 'application/json').send('{"name": "Jane"')),
      400,
      'BAD_REQUEST',
    );
    expectSameProblem(
      await both((t) => keyed(t).set('content-type', 'application/json').send('"Jane"')),
      400,
      'BAD_REQUEST',
    );
    // Unsafe text is refused before the key is even looked at, as the safe-input rule says.
    expectSameProblem(await both((t) => t.send({ name: 'Jane\u0000Doe' })), 400, 'VALIDATION_FAILED');
  });

  it('refuses a body over 1 MiB (413) and one that is not JSON (415) alike', async () => {
    const { key } = await stack.client('large');
    const keyed = (t: Test) => t.set('x-api-key', key);
    expectSameProblem(await both((t) => keyed(t).send({ name: 'x'.repeat(1024 * 1024) })), 413, 'PAYLOAD_TOO_LARGE');
    expectSameProblem(
      await both((t) => keyed(t).set('content-type', 'text/plain').send('name=Jane')),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expectSameProblem(
      await both((t) => keyed(t).set('content-type', 'application/json; charset=latin1').send('{"name":"Jane"}')),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it('refuses over the rate limit alike: 429 RATE_LIMITED with RateLimit-* and Retry-After', async () => {
    const { key } = await stack.client('starter');
    const keyed = (t: Test) => t.set('x-api-key', key).send({ name: 'John Smith' });
    // 10 a minute for a starter client, shared by both replicas.
    for (let i = 0; i < 5; i++) {
      const [a, b] = await both(keyed);
      expect([a.status, b.status]).toEqual([200, 200]);
    }
    const limited = await both(keyed);
    expectSameProblem(limited, 429, 'RATE_LIMITED');
    for (const res of limited) {
      expect(res.headers['ratelimit-limit']).toBe('10');
      expect(res.headers['ratelimit-remaining']).toBe('0');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.headers['ratelimit-reset']).toBe(res.headers['retry-after']);
    }
  });

  it('refuses once the quota is used up alike: 429 QUOTA_EXCEEDED with Retry-After', async () => {
    const client = await stack.client('large');
    await stack.setSubscription(client.id, { quotaMonth: 2 });
    const keyed = (t: Test) => t.set('x-api-key', client.key).send({ name: 'John Smith' });
    const [a, b] = await both(keyed);
    expect([a.status, b.status]).toEqual([200, 200]);
    const exhausted = await both(keyed);
    expectSameProblem(exhausted, 429, 'QUOTA_EXCEEDED');
    for (const res of exhausted) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('leaves a request with an Idempotency-Key to the Nest route (its interceptor acts on it)', async () => {
    const { key } = await stack.client('large');
    const [a, b] = await both((t) => t.set('x-api-key', key).set('idempotency-key', '').send({ name: 'Jane' }));
    expectSameProblem([a, b], 400, 'VALIDATION_FAILED');
    expect(a.body.errors).toEqual([expect.objectContaining({ pointer: '/headers/idempotency-key' })]);
  });
  it('answers 503 SERVICE_UNAVAILABLE alike when screening is down', async () => {
    const { key } = await stack.client('large');
    const screening = stack.services.get('screening')!;
    const exited = new Promise((resolve) => screening.once('exit', resolve));
    screening.kill('SIGKILL');
    await exited;
    const down = await both((t) => t.set('x-api-key', key).send({ name: 'John Smith' }));
    expectSameProblem(down, 503, 'SERVICE_UNAVAILABLE');
    for (const res of down) expect(res.headers['retry-after']).toBe('5');
  });
});
