/** Spec §9: the session is refreshed every 45 minutes even if the token would last longer. */
export const PERIODIC_REFRESH_MS = 45 * 60 * 1000;
/** Refresh this long before the access token expires, so no request goes out with a dead token. */
export const REFRESH_AHEAD_MS = 60 * 1000;

/**
 * When to refresh next: shortly before expiry, and never later than the 45-minute period. The head
 * start is at most a quarter of the token's life left: with a fixed minute, a deployment issuing
 * tokens of a minute or less (ACCESS_TOKEN_TTL_SECONDS allows 30) had every open page refresh
 * every second.
 */
export function nextRefreshDelay(expiresAtSeconds: number, now = Date.now()): number {
  const left = expiresAtSeconds * 1000 - now;
  const untilRefresh = left - Math.min(REFRESH_AHEAD_MS, left / 4);
  return Math.max(1_000, Math.min(untilRefresh, PERIODIC_REFRESH_MS));
}
