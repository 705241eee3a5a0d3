import { jest } from '@jest/globals';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError, parseConfig } from '@vigil/platform';
import type { MemberRole, ResolvedKey } from '@vigil/proto';
import { envSchema } from '../env.js';
import type { RateLimits } from '../rate-limits/rate-limits.service.js';
import type { SecurityEvents } from '../security-events/security-events.publisher.js';
import type { ApiKeys } from './api-keys.service.js';
import { CredentialsGuard } from './credentials.guard.js';
import { Credentials, RequiresMemberRole, type SessionUser } from './credentials.js';
import type { SessionTokens } from './session-tokens.service.js';

const CLIENT_ID = '11111111-1111-4111-8111-111111111111';

class Probe {
  @Credentials('dashboard')
  read() {}

  @Credentials('dashboard')
  @RequiresMemberRole('analyst')
  decide() {}

  @Credentials('dashboard')
  @RequiresMemberRole('owner')
  invite() {}
}

/** `memberRole`: what auth says now; `tokenRole`: what the token was issued with. */
function setup(memberRole: MemberRole | null, tokenRole: MemberRole | null = memberRole) {
  const user: SessionUser = {
    id: '22222222-2222-4222-8222-222222222222',
    email: 'member@example.com',
    role: 'user',
    clientId: CLIENT_ID,
    memberRole: tokenRole,
    sessionId: '33333333-3333-4333-8333-333333333333',
    aal: 'aal1',
    mfaEnrolled: false,
  };
  const client = { clientId: CLIENT_ID, tier: 'large', rateLimitPerMinute: 100 } as ResolvedKey;
  const tokens = { verify: jest.fn(async () => user) };
  const keys = {
    resolveMember: jest.fn(async () => {
      if (!memberRole)
        throw new DomainError('UNAUTHENTICATED', 'Your membership of this client has ended; sign in again.');
      return { client, memberRole, fresh: false };
    }),
  };
  const limits = {
    consume: jest.fn(async () => ({ allowed: true, limit: 100, remaining: 99, resetSeconds: 60 })),
    exhausted: jest.fn(async () => null),
  };
  const events = { record: jest.fn() };
  const sut = new CredentialsGuard(
    new Reflector(),
    keys as unknown as ApiKeys,
    tokens as unknown as SessionTokens,
    limits as unknown as RateLimits,
    events as unknown as SecurityEvents,
    parseConfig(envSchema, {}),
  );
  const call = (handler: keyof Probe) => {
    const req = { header: () => undefined, ip: '127.0.0.1' };
    const res = { setHeader: jest.fn() };
    const context = {
      getType: () => 'http',
      getHandler: () => Probe.prototype[handler],
      getClass: () => Probe,
      switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
    } as unknown as ExecutionContext;
    return sut.canActivate(context);
  };
  return { sut, call };
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return error instanceof DomainError ? { code: error.code, message: error.message } : error;
};

describe('CredentialsGuard: the least team role of a route', () => {
  it.each<[MemberRole, keyof Probe]>([
    ['viewer', 'read'],
    ['analyst', 'decide'],
    ['supervisor', 'decide'],
    ['owner', 'decide'],
    ['owner', 'invite'],
  ])('lets a %s through %s', async (role, handler) => {
    await expect(setup(role).call(handler)).resolves.toBe(true);
  });

  it.each<[MemberRole, keyof Probe, MemberRole]>([
    ['viewer', 'decide', 'analyst'],
    ['analyst', 'invite', 'owner'],
    ['supervisor', 'invite', 'owner'],
  ])('refuses a %s on %s with ROLE_FORBIDDEN naming both roles', async (role, handler, minimum) => {
    expect(await refusal(setup(role).call(handler))).toEqual({
      code: 'ROLE_FORBIDDEN',
      message: `This action needs the ${minimum} role or higher; your role is ${role}.`,
    });
  });

  it('judges by the live role, not the one the token was issued with', async () => {
    expect(await refusal(setup('viewer', 'owner').call('decide'))).toMatchObject({ code: 'ROLE_FORBIDDEN' });
    await expect(setup('owner', null).call('invite')).resolves.toBe(true);
  });

  it('refuses a user who is no longer a member on every dashboard route', async () => {
    expect(await refusal(setup(null, 'analyst').call('read'))).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
