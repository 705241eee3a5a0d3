/**
 * What survives a reload: only the refresh token (the access token lives in memory).
 * "Remember me" keeps it in localStorage for the auth service's 30 days;
 * otherwise sessionStorage, so closing the tab ends the session.
 */
export const STORAGE_PREFIX = 'vigil.';
const REFRESH_KEY = `${STORAGE_PREFIX}auth.refresh`;

type Stores = { local: Storage | undefined; session: Storage | undefined };

function stores(): Stores {
  // Either store may be missing or throw (privacy modes); storage failures are only logged (spec §7).
  const pick = (name: 'localStorage' | 'sessionStorage') => {
    try {
      return typeof window === 'undefined' ? undefined : window[name];
    } catch {
      return undefined;
    }
  };
  return { local: pick('localStorage'), session: pick('sessionStorage') };
}

export type StoredRefresh = { token: string; remember: boolean };

export function readRefreshToken(s: Stores = stores()): StoredRefresh | null {
  try {
    const local = s.local?.getItem(REFRESH_KEY);
    if (local) return { token: local, remember: true };
    const session = s.session?.getItem(REFRESH_KEY);
    if (session) return { token: session, remember: false };
  } catch (error) {
    console.warn('Reading the stored session failed', error);
  }
  return null;
}

export function writeRefreshToken(token: string, remember: boolean, s: Stores = stores()): void {
  try {
    (remember ? s.session : s.local)?.removeItem(REFRESH_KEY);
    (remember ? s.local : s.session)?.setItem(REFRESH_KEY, token);
  } catch (error) {
    console.warn('Storing the session failed', error);
  }
}

/**
 * Sign-out removes every trace the app left: every key with our prefix in both
 * stores. If even that fails, both stores are cleared outright (spec §4).
 */
export function clearStoredTraces(s: Stores = stores()): void {
  for (const store of [s.local, s.session]) {
    if (!store) continue;
    try {
      const keys: string[] = [];
      for (let i = 0; i < store.length; i++) {
        const key = store.key(i);
        if (key !== null && key.startsWith(STORAGE_PREFIX)) keys.push(key);
      }
      keys.forEach((key) => store.removeItem(key));
    } catch {
      try {
        store.clear();
      } catch (error) {
        console.warn('Clearing browser storage failed', error);
      }
    }
  }
}
