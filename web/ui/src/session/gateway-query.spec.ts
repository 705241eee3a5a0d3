import { configureStore } from '@reduxjs/toolkit';
import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import type { Session } from '@vigil/proto';
import { authSlice, sessionStarted } from './auth-slice.js';
import { createGatewayQuery } from './gateway-query.js';
import type { RefreshedSession } from './session-refresh.js';

const session = (token: string) => ({ access_token: token, refresh_token: `r-${token}` }) as Session;

/** A gateway that accepts only `valid` as the bearer token, recording the token of every call. */
function fakeGateway(valid: string) {
  const seen: (string | null)[] = [];
  const fetchFn = async (input: RequestInfo | URL) => {
    const token = (input as Request).headers.get('authorization');
    seen.push(token);
    return token === `Bearer ${valid}`
      ? Response.json({ ok: true })
      : Response.json({ title: 'Unauthorized', status: 401, detail: 'Token expired', code: 'UNAUTHORIZED' }, { status: 401 });
  };
  return { seen, fetchFn };
}

function setUp(refreshed: RefreshedSession | null, signedIn = true) {
  const store = configureStore({ reducer: { auth: authSlice.reducer } });
  if (signedIn) store.dispatch(sessionStarted({ session: session('old'), remember: true }));
  let refreshes = 0;
  const query = createGatewayQuery('http://gateway.test', async () => {
    refreshes += 1;
    return refreshed;
  });
  const api = {
    signal: new AbortController().signal,
    abort: () => undefined,
    dispatch: store.dispatch,
    getState: store.getState,
    extra: undefined,
    endpoint: 'test',
    type: 'query',
  } as BaseQueryApi;
  return { store, run: () => query('/api/thing', api, {}), refreshes: () => refreshes };
}

describe('createGatewayQuery', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('refreshes once on a 401 and sends the call again with the new token', async () => {
    const gateway = fakeGateway('new');
    globalThis.fetch = gateway.fetchFn as typeof fetch;
    const { store, run, refreshes } = setUp({ session: session('new'), remember: true });

    const result = await run();

    expect(result).toMatchObject({ data: { ok: true } });
    expect(gateway.seen).toEqual(['Bearer old', 'Bearer new']);
    expect(refreshes()).toBe(1);
    expect(store.getState().auth.session?.access_token).toBe('new');
  });

  it('ends the session when the refresh is refused, and answers the 401 as an ApiError', async () => {
    globalThis.fetch = fakeGateway('new').fetchFn as typeof fetch;
    const { store, run } = setUp(null);

    const result = await run();

    expect(result.error).toEqual({ status: 401, message: 'Token expired', code: 'UNAUTHORIZED' });
    expect(store.getState().auth).toMatchObject({ status: 'anonymous', session: null });
  });

  it('does not try to refresh a session nobody had', async () => {
    const gateway = fakeGateway('new');
    globalThis.fetch = gateway.fetchFn as typeof fetch;
    const { run, refreshes } = setUp({ session: session('new'), remember: true }, false);

    expect((await run()).error?.status).toBe(401);
    expect(gateway.seen).toEqual([null]);
    expect(refreshes()).toBe(0);
  });
});
