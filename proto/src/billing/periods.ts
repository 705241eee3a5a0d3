/**
 * Billing periods, shared so that billing (which rolls them), auth (which answers the gateway's
 * key look-ups) and the gateway (which keys its quota counter by the period's start) agree on
 * the same instants. A period is [start, end); the next one starts at the end and lasts a month.
 */
export type SubscriptionPeriod = { start: Date; end: Date };

/** The same day of the next month (clamped to its last day), in UTC: a monthly billing period's end. */
export function addMonth(start: Date): Date {
  const year = start.getUTCFullYear();
  const month = start.getUTCMonth() + 1;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const end = new Date(start);
  end.setUTCFullYear(year, month, Math.min(start.getUTCDate(), lastDay));
  return end;
}

/**
 * The period `now` falls in, given the last period billing recorded: that one while it runs,
 * then monthly successors (start = previous end), exactly as billing rolls a renewal. So a
 * quota resets at the period's end even before billing has heard of the renewal, and billing's
 * roll, when it comes, lands on the same start: nothing resets twice.
 */
export function periodAt(recorded: SubscriptionPeriod, now: Date): SubscriptionPeriod {
  let { start, end } = recorded;
  while (end.getTime() <= now.getTime()) {
    start = end;
    end = addMonth(end);
  }
  return { start, end };
}

/** Clients without a billing subscription (created by an admin) count by UTC calendar month. */
export function calendarMonthAt(now: Date): SubscriptionPeriod {
  return {
    start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}
