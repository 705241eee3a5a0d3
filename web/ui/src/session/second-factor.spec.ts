import type { Factor, Session } from '@vigil/proto';
import { accessTokenAal, secondFactorDue } from './second-factor.js';

const base64url = (value: object) =>
  btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const token = (claims: object) => `${base64url({ alg: 'EdDSA' })}.${base64url(claims)}.signature`;

const factor = (status: Factor['status']): Factor => ({
  id: '0b5f1c9e-8d1a-4a51-9d59-1f8f4f0d2c11',
  factor_type: 'totp',
  status,
  friendly_name: 'Authenticator app',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
});

function session(aal: string, factors: Factor[]): Session {
  return {
    access_token: token({ sub: 'u', aal }),
    refresh_token: 'r',
    expires_at: 0,
    expires_in: 900,
    token_type: 'bearer',
    user: {
      id: '6b0f3f6e-1d0c-4b43-a0b5-5b5a6e1f9a01',
      email: 'ada@example.com',
      full_name: null,
      role: 'user',
      client_id: null,
      member_role: null,
      email_confirmed_at: null,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      identities: [],
      factors,
    },
  };
}

describe('accessTokenAal', () => {
  it('reads the aal claim of a JWT, base64url and all', () => {
    expect(accessTokenAal(token({ aal: 'aal2', name: '~~~???' }))).toBe('aal2');
    expect(accessTokenAal(token({ aal: 'aal1' }))).toBe('aal1');
  });

  it('answers null for a token it cannot read', () => {
    expect(accessTokenAal('not-a-jwt')).toBeNull();
    expect(accessTokenAal('a.%%%.c')).toBeNull();
    expect(accessTokenAal(token({ aal: 'aal9' }))).toBeNull();
  });
});

describe('secondFactorDue', () => {
  it('asks for the code when a verified authenticator exists and the session is at aal1', () => {
    expect(secondFactorDue(session('aal1', [factor('verified')]))?.status).toBe('verified');
  });

  it('asks nothing once the session is at aal2, or when no factor is verified yet', () => {
    expect(secondFactorDue(session('aal2', [factor('verified')]))).toBeNull();
    expect(secondFactorDue(session('aal1', [factor('unverified')]))).toBeNull();
    expect(secondFactorDue(session('aal1', []))).toBeNull();
  });
});
