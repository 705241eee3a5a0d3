import { createVigilClient } from './index.js';

/** A fetch that records the request it was given and answers `body` with `status`. */
function recordingFetch(status: number, body: unknown) {
  const seen: Request[] = [];
  const fetch = async (input: Request) => {
    seen.push(input);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  return { seen, fetch: fetch as unknown as typeof globalThis.fetch };
}

describe('createVigilClient', () => {
  it('sends the key in x-api-key to the gateway path, with the JSON body', async () => {
    const { seen, fetch } = recordingFetch(200, { results: [] });
    const vigil = createVigilClient({ baseUrl: 'https://api.vigil.example/', apiKey: 'k'.repeat(64), fetch });
    const { data, error } = await vigil.POST('/api/v1/screen', { body: { name: 'Jane Doe' } });
    expect(error).toBeUndefined();
    expect(data).toEqual({ results: [] });
    const [request] = seen;
    expect([request!.method, request!.url]).toEqual(['POST', 'https://api.vigil.example/api/v1/screen']);
    expect(request!.headers.get('x-api-key')).toBe('k'.repeat(64));
    expect(request!.headers.get('authorization')).toBeNull();
    expect(await request!.json()).toEqual({ name: 'Jane Doe' });
  });

  it('answers a problem+json failure as error, not data', async () => {
    const problem = {
      type: 'about:blank',
      title: 'Invalid API key',
      status: 401,
      detail: 'Unknown key.',
      code: 'INVALID_API_KEY',
    };
    const { fetch } = recordingFetch(401, problem);
    const vigil = createVigilClient({ baseUrl: 'https://api.vigil.example', apiKey: 'nope', fetch });
    const { data, error, response } = await vigil.GET('/api/v1/status');
    expect([data, response.status]).toEqual([undefined, 401]);
    expect(error).toEqual(problem);
  });

  it('types a success body from the document (no longer `never`)', async () => {
    const status = {
      tier: 'small',
      usage: 12,
      quota: 5000,
      remaining: 4988,
      client: 'Acme Bank',
      subscriptionStatus: 'active',
      period: '2026-11-01T00:00:00.000Z',
      periodEnd: '2026-12-01T00:00:00.000Z',
    } as const;
    const { fetch } = recordingFetch(200, status);
    const vigil = createVigilClient({ baseUrl: 'https://api.vigil.example', apiKey: 'k'.repeat(64), fetch });
    const { data } = await vigil.GET('/api/v1/status');
    // Compiles only while the 200 answer has a schema: `remaining` is a number, `tier` one of the tiers.
    const remaining: number | undefined = data?.remaining;
    const tier: 'starter' | 'small' | 'medium' | 'large' | undefined = data?.tier;
    expect([remaining, tier]).toEqual([4988, 'small']);
  });

  it('refuses to start without a base URL or a key', () => {
    expect(() => createVigilClient({ baseUrl: '', apiKey: 'k' })).toThrow(/baseUrl/);
    expect(() => createVigilClient({ baseUrl: 'https://api.vigil.example', apiKey: '' })).toThrow(/apiKey/);
  });
});
