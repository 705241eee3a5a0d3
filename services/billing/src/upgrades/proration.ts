const DAY_MS = 86_400_000;

export type Proration = { proratedCost: number; proratedCents: number; daysRemaining: number; daysInPeriod: number };

/**
 * What an upgrade costs now: (new price − current price) × days remaining / days in period,
 * rounded to cents. Prices are whole dollars a month; the period is the subscription's
 * current billing period [start, end).
 *
 * - Days in period: the period's length in whole days (28–31 for a month).
 * - Days remaining: started days left, ceil((end − now) / 1 day), so an upgrade on the
 *   first day pays the whole difference and one in the last day pays for that day.
 *   At or after the end nothing remains (the next invoice charges the new price).
 * - Rounding: half away from zero on cents, computed in integer cents to avoid float drift.
 */
export function prorate(
  currentPriceUsd: number,
  newPriceUsd: number,
  periodStart: Date,
  periodEnd: Date,
  now: Date,
): Proration {
  const daysInPeriod = Math.max(1, Math.round((periodEnd.getTime() - periodStart.getTime()) / DAY_MS));
  const left = periodEnd.getTime() - Math.max(now.getTime(), periodStart.getTime());
  const daysRemaining = Math.min(daysInPeriod, Math.max(0, Math.ceil(left / DAY_MS)));
  const differenceCents = Math.round((newPriceUsd - currentPriceUsd) * 100);
  const proratedCents =
    Math.sign(differenceCents) * Math.round((Math.abs(differenceCents) * daysRemaining) / daysInPeriod);
  return { proratedCost: proratedCents / 100, proratedCents, daysRemaining, daysInPeriod };
}
