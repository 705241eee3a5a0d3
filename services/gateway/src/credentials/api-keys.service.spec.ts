import { jest } from '@jest/globals';
import { parseConfig, type RpcClient } from '@vigil/platform';
import type { ResolvedKey } from '@vigil/proto';
import { envSchema } from '../env.js';
import type { NatsStreams } from '../infra/jetstream.js';
import { ApiKeys, hashApiKey } from './api-keys.service.js';

const KEY = 'a'.repeat(64);
const resolved = {
  clientId: '11111111-1111-4111-8111-111111111111',
  clientName: 'Bank',
  tier: 'starter',
} as ResolvedKey;

function setup(env: Record<string, string> = {}) {
  let onRevoked: (payload: unknown) => void = () => undefined;
  const rpc = { request: jest.fn(async () => resolved) };
  const streams = {
    subscribe: jest.fn(async (_subject: string, handler: (payload: unknown) => void) => {
      onRevoked = handler;
    }),
  };
  const sut = new ApiKeys(rpc as unknown as RpcClient, streams as unknown as NatsStreams, parseConfig(envSchema, env));
  return { sut, mocks: { rpc, streams }, revoke: (payload: unknown) => onRevoked(payload) };
}

describe('ApiKeys', () => {
  it('asks auth by the SHA-256 of the key, never the key, and answers repeats from the cache', async () => {
    const { sut, mocks } = setup();
    await sut.onModuleInit();
    expect(await sut.resolve(KEY)).toEqual({ client: resolved, fresh: true });
    expect(await sut.resolve(KEY)).toEqual({ client: resolved, fresh: false });
    expect(mocks.rpc.request).toHaveBeenCalledTimes(1);
    expect(mocks.rpc.request).toHaveBeenCalledWith('clients.v1.resolve-key', { keyHash: hashApiKey(KEY) });
    expect(JSON.stringify(mocks.rpc.request.mock.calls)).not.toContain(KEY);
  });

  it('refuses malformed keys without asking auth', async () => {
    const { sut, mocks } = setup();
    await expect(sut.resolve('not-a-key')).rejects.toMatchObject({ code: 'INVALID_API_KEY' });
    await expect(sut.resolve('A'.repeat(64))).rejects.toMatchObject({ code: 'INVALID_API_KEY' });
    expect(mocks.rpc.request).not.toHaveBeenCalled();
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

  it('never keeps an answer longer than KEY_CACHE_TTL_MS', async () => {
    const { sut, mocks } = setup({ KEY_CACHE_TTL_MS: '0' });
    await sut.resolve(KEY);
    await sut.resolve(KEY);
    expect(mocks.rpc.request).toHaveBeenCalledTimes(2);
    expect(() => parseConfig(envSchema, { KEY_CACHE_TTL_MS: '6000' })).toThrow(/KEY_CACHE_TTL_MS/);
  });
});
