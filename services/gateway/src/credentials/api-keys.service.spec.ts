import { jest } from '@jest/globals';
import { parseConfig, type Nats, type RpcClient } from '@vigil/platform';
import { contracts, type ResolvedKey } from '@vigil/proto';
import { envSchema } from '../env.js';
import { ApiKeys, hashApiKey } from './api-keys.service.js';

const KEY = 'a'.repeat(64);
const resolved = {
  clientId: '11111111-1111-4111-8111-111111111111',
  clientName: 'Bank',
  tier: 'starter',
  periodStart: '2026-01-01T00:00:00.000Z',
  periodEnd: '2999-01-01T00:00:00.000Z',
} as ResolvedKey;

function setup(env: Record<string, string> = {}) {
  const handlers = new Map<string, (payload: unknown) => void>();
  const rpc = { request: jest.fn(async () => resolved) };
  const nats = {
    subscribeAll: jest.fn(async (subject: string, handler: (payload: unknown) => void) => {
      handlers.set(subject, handler);
    }),
  };
  const sut = new ApiKeys(rpc as unknown as RpcClient, nats as unknown as Nats, parseConfig(envSchema, env));
  const deliver = (subject: string, payload: unknown) => {
    const handler = handlers.get(subject);
    if (!handler) throw new Error(`nothing follows ${subject}`);
    handler(payload);
  };
  return {
    sut,
    mocks: { rpc, nats },
    deliver,
    revoke: (payload: unknown) => deliver('clients.v1.key-revoked', payload),
  };
}

describe('ApiKeys', () => {
  it('asks auth by the SHA-256 of the key, never the key, and answers repeats from the cache', async () => {
    const { sut, mocks } = setup();
    await sut.onModuleInit();
    expect(await sut.resolve(KEY)).toEqual({ client: resolved, fresh: true });
    expect(await sut.resolve(KEY)).toEqual({ client: resolved, fresh: false });
    expect(mocks.rpc.request).toHaveBeenCalledTimes(1);
    expect(mocks.rpc.request).toHaveBeenCalledWith(contracts.clients.resolveKey, { keyHash: hashApiKey(KEY) });
    expect(JSON.stringify(mocks.rpc.request.mock.calls)).not.toContain(KEY);
  });

  it('refuses malformed keys without asking auth', async () => {
    const { sut, mocks } = setup();
    await expect(sut.resolve('not-a-key')).rejects.toMatchObject({ code: 'INVALID_API_KEY' });
    await expect(sut.resolve('A'.repeat(64))).rejects.toMatchObject({ code: 'INVALID_API_KEY' });
    expect(mocks.rpc.request).not.toHaveBeenCalled();
  });

  it("forgets a client's keys when an admin changes its thresholds here, so the next screen uses them", async () => {
    const { sut, mocks } = setup();
    await sut.onModuleInit();
    await sut.resolve(KEY);
    sut.forgetClient('22222222-2222-4222-8222-222222222222');
    expect(await sut.resolve(KEY)).toEqual({ client: resolved, fresh: false });
    sut.forgetClient(resolved.clientId);
    expect(await sut.resolve(KEY)).toEqual({ client: resolved, fresh: true });
    expect(mocks.rpc.request).toHaveBeenCalledTimes(2);
  });

  it('forgets a key the moment its key-revoked event arrives', async () => {
    const { sut, mocks, revoke } = setup();
    await sut.onModuleInit();
    await sut.resolve(KEY);
    revoke({
      clientId: resolved.clientId,
      keyId: resolved.clientId,
      keyHash: hashApiKey(KEY),
      keyPrefix: 'aaaaaaaa',
      reason: 'revoked',
      revokedAt: new Date().toISOString(),
    });
    expect((await sut.resolve(KEY)).fresh).toBe(true);
    expect(mocks.rpc.request).toHaveBeenCalledTimes(2);
  });

  it.each([
    'billing.v1.tier-changed',
    'billing.v1.subscription-activated',
    'billing.v1.payment-failed',
    'billing.v1.subscription-cancelled',
  ])('forgets every cached key of the client named by %s, and only that client', async (subject) => {
    const other = 'b'.repeat(64);
    const { sut, mocks, deliver } = setup();
    mocks.rpc.request.mockImplementation(async (...args: unknown[]) => {
      const { keyHash } = args[1] as { keyHash: string };
      return keyHash === hashApiKey(other)
        ? { ...resolved, clientId: '22222222-2222-4222-8222-222222222222' }
        : resolved;
    });
    await sut.onModuleInit();
    await sut.resolve(KEY);
    await sut.resolve(other);
    deliver(subject, { id: 'evt_1', client_id: resolved.clientId, occurred_at: new Date().toISOString() });
    expect((await sut.resolve(KEY)).fresh).toBe(true);
    expect((await sut.resolve(other)).fresh).toBe(false);
    expect(mocks.rpc.request).toHaveBeenCalledTimes(3);
  });

  it('does not cache a look-up that was under way when a billing event arrived', async () => {
    const { sut, mocks, deliver } = setup();
    let answer: (value: ResolvedKey) => void = () => undefined;
    mocks.rpc.request.mockImplementationOnce(() => new Promise<ResolvedKey>((resolve) => (answer = resolve)));
    await sut.onModuleInit();
    const pending = sut.resolve(KEY);
    deliver('billing.v1.tier-changed', {
      id: 'evt_2',
      client_id: resolved.clientId,
      occurred_at: new Date().toISOString(),
    });
    answer(resolved);
    await pending;
    expect((await sut.resolve(KEY)).fresh).toBe(true);
  });

  it('does not keep an answer past the end of its usage period', async () => {
    const { sut, mocks } = setup();
    mocks.rpc.request.mockImplementation(async () => ({
      ...resolved,
      periodEnd: new Date(Date.now() + 50).toISOString(),
    }));
    await sut.resolve(KEY);
    expect((await sut.resolve(KEY)).fresh).toBe(false);
    await new Promise((r) => setTimeout(r, 80));
    expect((await sut.resolve(KEY)).fresh).toBe(true);
  });

  it('never keeps an answer longer than KEY_CACHE_TTL_MS', async () => {
    const { sut, mocks } = setup({ KEY_CACHE_TTL_MS: '0' });
    await sut.resolve(KEY);
    await sut.resolve(KEY);
    expect(mocks.rpc.request).toHaveBeenCalledTimes(2);
    expect(() => parseConfig(envSchema, { KEY_CACHE_TTL_MS: '6000' })).toThrow(/KEY_CACHE_TTL_MS/);
  });
  it('resolves a signed-in member’s client and live role, cached, and asks again after their membership changes', async () => {
    const { sut, mocks, deliver } = setup();
    const userId = '33333333-3333-4333-8333-333333333333';
    mocks.rpc.request.mockImplementation(async () => ({ ...resolved, memberRole: 'analyst' }));
    await sut.onModuleInit();
    expect(await sut.resolveMember(resolved.clientId, userId)).toEqual({
      client: resolved,
      memberRole: 'analyst',
      fresh: true,
    });
    expect(await sut.resolveMember(resolved.clientId, userId)).toMatchObject({ fresh: false });
    expect(mocks.rpc.request).toHaveBeenCalledWith(contracts.clients.team.resolveMember, {
      clientId: resolved.clientId,
      userId,
    });
    deliver('auth.v1.member-changed', {
      user_id: userId,
      client_id: resolved.clientId,
      member_role: 'viewer',
      changed_at: new Date().toISOString(),
    });
    expect(await sut.resolveMember(resolved.clientId, userId)).toMatchObject({ fresh: true });
    expect(mocks.rpc.request).toHaveBeenCalledTimes(2);
  });

  it('never keeps a member’s answer longer than KEY_CACHE_TTL_MS, so a lost member-changed event costs at most that', async () => {
    const { sut, mocks } = setup({ KEY_CACHE_TTL_MS: '50' });
    mocks.rpc.request.mockImplementation(async () => ({ ...resolved, memberRole: 'owner' }));
    await sut.resolveMember(resolved.clientId, '33333333-3333-4333-8333-333333333333');
    await new Promise((r) => setTimeout(r, 80));
    expect((await sut.resolveMember(resolved.clientId, '33333333-3333-4333-8333-333333333333')).fresh).toBe(true);
  });
});
