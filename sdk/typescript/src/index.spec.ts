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

  it('refuses to start without a base URL or a key', () => {
    expect(() => createVigilClient({ baseUrl: '', apiKey: 'k' })).toThrow(/baseUrl/);
    expect(() => createVigilClient({ baseUrl: 'https://api.vigil.example', apiKey: '' })).toThrow(/apiKey/);
  });
});
