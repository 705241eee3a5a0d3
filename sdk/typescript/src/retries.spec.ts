import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createVigilClient, unwrap, VigilError, VigilProblemError } from './index.js';

type Seen = { method: string; url: string; idempotencyKey: string | undefined; body: string };
/** What the server does with one request: answer it, or drop the connection (a network error). */
type Step = { status: number; headers?: Record<string, string>; body?: unknown } | 'drop';

const PROBLEM = (status: number, code: string) => ({
  type: 'about:blank',
  title: code,
  status,
  detail: `${code} for the test`,
  code,
});

const SCREENED = { match: false, results: [] };

/** A gateway on 127.0.0.1 that plays `steps` in order (the last one repeats) and records each request. */
async function scriptedGateway(steps: Step[]) {
  const seen: Seen[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
      seen.push({ method: request.method!, url: request.url!, idempotencyKey, body });
      const step = steps[Math.min(seen.length - 1, steps.length - 1)]!;
      if (step === 'drop') return request.socket.destroy();
      const type = step.status >= 400 ? 'application/problem+json' : 'application/json';
      response.writeHead(step.status, { 'content-type': type, ...step.headers });
      response.end(typeof step.body === 'string' ? step.body : JSON.stringify(step.body ?? {}));
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const waits: number[] = [];
  const vigil = createVigilClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey: 'k'.repeat(64),
    // Records each wait instead of sleeping, so the test shows Retry-After was honoured and takes no time.
    retry: { backoffMs: 100, sleep: async (ms) => void waits.push(ms) },
  });
  return { vigil, seen, waits, close: () => new Promise((closed) => server.close(closed)) };
}

const screen = (vigil: ReturnType<typeof createVigilClient>, idempotencyKey?: string) =>
  vigil.POST('/api/v1/screen', {
    body: { name: 'Jane Doe' },
    params: idempotencyKey ? { header: { 'Idempotency-Key': idempotencyKey } } : {},
  });

describe('retries with one Idempotency-Key', () => {
  let gateway: Awaited<ReturnType<typeof scriptedGateway>> | undefined;
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
  });

  it('retries a 429 after its Retry-After, resending the body under the same key', async () => {
    gateway = await scriptedGateway([
      { status: 429, headers: { 'retry-after': '2' }, body: PROBLEM(429, 'RATE_LIMITED') },
      { status: 200, body: SCREENED },
    ]);
    const { data, error } = await screen(gateway.vigil);
    expect([data, error]).toEqual([SCREENED, undefined]);
    expect(gateway.seen).toHaveLength(2);
    const [first, second] = gateway.seen;
    expect(first!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(second!.idempotencyKey).toBe(first!.idempotencyKey);
    expect([first!.body, second!.body]).toEqual([JSON.stringify({ name: 'Jane Doe' }), first!.body]);
    expect(gateway.waits).toEqual([2000]);
  });

  it('retries a 503 and a dropped connection with a backoff, keeping the caller’s key', async () => {
    gateway = await scriptedGateway([
      { status: 503, body: PROBLEM(503, 'SERVICE_UNAVAILABLE') },
      'drop',
      { status: 200, body: SCREENED },
    ]);
    const { data } = await screen(gateway.vigil, 'my-key-1');
    expect(data).toEqual(SCREENED);
    expect(gateway.seen.map((request) => request.idempotencyKey)).toEqual(['my-key-1', 'my-key-1', 'my-key-1']);
    // Full jitter: the n-th wait is at most backoffMs · 2^n.
    expect(gateway.waits).toHaveLength(2);
    expect(gateway.waits[0]).toBeLessThanOrEqual(100);
    expect(gateway.waits[1]).toBeLessThanOrEqual(200);
  });

  it('retries a 409 only when it carries Retry-After (the key’s first attempt still running)', async () => {
    gateway = await scriptedGateway([
      { status: 409, headers: { 'retry-after': '1' }, body: PROBLEM(409, 'IDEMPOTENCY_IN_PROGRESS') },
      { status: 409, body: PROBLEM(409, 'IDEMPOTENCY_KEY_REUSED') },
    ]);
    const { error, response } = await screen(gateway.vigil);
    expect([response.status, error?.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect(gateway.seen).toHaveLength(2);
    expect(gateway.waits).toEqual([1000]);
  });

  it('gives up after maxRetries and answers the last problem; a 500 or a GET key is never retried or added', async () => {
    gateway = await scriptedGateway([{ status: 503, body: PROBLEM(503, 'SERVICE_UNAVAILABLE') }]);
    const { error } = await screen(gateway.vigil);
    expect(error?.code).toBe('SERVICE_UNAVAILABLE');
    expect(gateway.seen).toHaveLength(4);
    await gateway.close();

    gateway = await scriptedGateway([{ status: 500, body: PROBLEM(500, 'INTERNAL') }]);
    expect((await gateway.vigil.GET('/api/v1/status')).response.status).toBe(500);
    expect(gateway.seen).toHaveLength(1);
    expect(gateway.seen[0]!.idempotencyKey).toBeUndefined();
  });

  it('throws a VigilError when every attempt failed on the network', async () => {
    gateway = await scriptedGateway(['drop']);
    await expect(screen(gateway.vigil)).rejects.toThrow(VigilError);
    expect(gateway.seen).toHaveLength(4);
  });
});

describe('unwrap: problems as typed errors', () => {
  let gateway: Awaited<ReturnType<typeof scriptedGateway>> | undefined;
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
  });

  it('answers the data of a 2xx, and throws a VigilProblemError with status, code and pointers otherwise', async () => {
    gateway = await scriptedGateway([
      { status: 200, body: SCREENED },
      {
        status: 400,
        body: { ...PROBLEM(400, 'VALIDATION_FAILED'), errors: [{ pointer: '/dateOfBirth', detail: 'not a date' }] },
      },
    ]);
    expect(unwrap(await screen(gateway.vigil))).toEqual(SCREENED);
    const thrown = await screen(gateway.vigil)
      .then(unwrap)
      .catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(VigilProblemError);
    const problem = thrown as VigilProblemError;
    expect([problem.status, problem.code, problem.errors]).toEqual([
      400,
      'VALIDATION_FAILED',
      [{ pointer: '/dateOfBirth', detail: 'not a date' }],
    ]);
    expect(problem.response.status).toBe(400);
  });

  it('still throws a typed problem for an answer that is not problem+json (a proxy’s page)', async () => {
    gateway = await scriptedGateway([{ status: 502, body: '<html>Bad gateway</html>' }]);
    const thrown = await gateway.vigil
      .GET('/api/v1/status')
      .then(unwrap)
      .catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(VigilProblemError);
    expect([(thrown as VigilProblemError).status, (thrown as VigilProblemError).code]).toEqual([502, 'HTTP_ERROR']);
  });
});
