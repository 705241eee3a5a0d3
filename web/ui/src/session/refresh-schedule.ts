/** Spec §9: the session is refreshed every 45 minutes even if the token would last longer. */
export const PERIODIC_REFRESH_MS = 45 * 60 * 1000;
/** Refresh this long before the access token expires, so no request goes out with a dead token. */
export const REFRESH_AHEAD_MS = 60 * 1000;

/** When to refresh next: shortly before expiry, and never later than the 45-minute period. */
export function nextRefreshDelay(expiresAtSeconds: number, now = Date.now()): number {
  const untilExpiry = expiresAtSeconds * 1000 - REFRESH_AHEAD_MS - now;
  return Math.max(1_000, Math.min(untilExpiry, PERIODIC_REFRESH_MS));
}
