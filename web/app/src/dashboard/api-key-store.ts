import { STORAGE_PREFIX } from '../auth/auth-storage.js';

const KEY = `${STORAGE_PREFIX}api-key`;

/**
 * The API key the user pasted, for this tab only: the server shows a key once
 * and keeps just its hash, so the browser is the only place it can come from.
 * Sign-out removes it with every other trace.
 */
export function readApiKey(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function writeApiKey(value: string | null): void {
  try {
    if (value === null) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, value);
  } catch (error) {
    console.warn('Storing the API key failed', error);
  }
}
