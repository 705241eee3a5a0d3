import type { Session } from '@vigil/proto';
import { readRefreshToken, writeRefreshToken } from '../auth-storage.js';

export type RefreshedSession = { session: Session; remember: boolean };

/** Trades the stored refresh token for a new session; null when there is none or the auth service says no. */
export type RefreshSession = () => Promise<RefreshedSession | null>;

const REFRESH_LOCK = 'vigil.auth.refresh';

/**
 * Tabs share a remembered refresh token (localStorage). Holding one lock across
 * tabs while refreshing means the second tab reads the token the first one
 * stored, instead of spending the same one twice and ending the session.
 */
async function acrossTabs<T>(run: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  return locks ? await locks.request(REFRESH_LOCK, run) : run();
}

/**
 * The app's one refresher for the gateway at `baseUrl`. The auth service rotates
 * refresh tokens and treats a reused one as theft, so concurrent callers in a tab
 * share one request, and tabs take turns, instead of each spending the token.
 * Create it once per app: the shared request lives in the returned function.
 */
export function createSessionRefresher(baseUrl: string): RefreshSession {
  let inFlight: Promise<RefreshedSession | null> | null = null;
  return () => {
    inFlight ??= acrossTabs(async () => {
      const stored = readRefreshToken();
      if (stored === null) return null;
      try {
        const response = await fetch(`${baseUrl}/auth/v1/token?grant_type=refresh_token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ refresh_token: stored.token }),
        });
        if (!response.ok) return null;
        const session = (await response.json()) as Session;
        writeRefreshToken(session.refresh_token, stored.remember);
        return { session, remember: stored.remember };
      } catch {
        return null;
      }
    }).finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}
