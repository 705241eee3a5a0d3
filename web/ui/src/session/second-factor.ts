import type { Factor, Session } from '@vigil/proto';

/**
 * The assurance level written in an access token (its `aal` claim), or null
 * when the token cannot be read. Only used to choose a screen: the auth service
 * enforces the level on every call that needs it.
 */
export function accessTokenAal(accessToken: string): 'aal1' | 'aal2' | null {
  const payload = accessToken.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const aal = (JSON.parse(json) as { aal?: unknown }).aal;
    return aal === 'aal1' || aal === 'aal2' ? aal : null;
  } catch {
    return null;
  }
}

/**
 * The factor a fresh session must still be verified with: a user with a
 * verified authenticator app whose session is not yet at aal2. Null when the
 * session is complete as it is.
 */
export function secondFactorDue(session: Session): Factor | null {
  if (accessTokenAal(session.access_token) === 'aal2') return null;
  return session.user.factors.find((factor) => factor.factor_type === 'totp' && factor.status === 'verified') ?? null;
}
