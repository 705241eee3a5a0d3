import { readRefreshToken } from '../auth-storage.js';
import { createSessionRefresher } from './session-refresh.js';

/** Just what auth-storage reads and writes of a Storage. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  } as Storage;
}

describe('createSessionRefresher', () => {
  const realFetch = globalThis.fetch;
  let requests: { url: string; body: unknown }[];

  beforeEach(() => {
    const local = memoryStorage();
    local.setItem('vigil.auth.refresh', 'spent-once');
    Object.assign(globalThis, { window: { localStorage: local, sessionStorage: memoryStorage() } });
    requests = [];
    globalThis.fetch = (async (url: string, init: RequestInit) => {
      requests.push({ url, body: JSON.parse(init.body as string) });
      return Response.json({ access_token: 'a2', refresh_token: 'rotated' });
    }) as typeof fetch;
  });

  afterEach(() => {
    globalThis.fetch = realFetch;
    delete (globalThis as { window?: unknown }).window;
  });

  it('spends the stored token once for callers that ask at the same time, and keeps the rotated one', async () => {
    const refreshSession = createSessionRefresher('http://gateway.test');

    const [first, second] = await Promise.all([refreshSession(), refreshSession()]);

    expect(requests).toEqual([
      { url: 'http://gateway.test/auth/v1/token?grant_type=refresh_token', body: { refresh_token: 'spent-once' } },
    ]);
    expect(second).toBe(first);
    expect(first).toMatchObject({ session: { access_token: 'a2' }, remember: true });
    expect(readRefreshToken()).toEqual({ token: 'rotated', remember: true });
  });

  it('answers null without a request when nothing is stored', async () => {
    delete (globalThis as { window?: unknown }).window;
    expect(await createSessionRefresher('')()).toBeNull();
    expect(requests).toEqual([]);
  });
});
