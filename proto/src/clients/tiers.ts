export const TIERS = ['starter', 'small', 'medium', 'large'] as const;
export type Tier = (typeof TIERS)[number];

export const SUBSCRIPTION_STATUSES = ['active', 'payment_failed', 'cancelled', 'past_due'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const FEEDS = [
  'ofac',
  'peps',
  'regulatory',
  'sanctions',
  'wanted',
  'crime',
  'us_sanctions',
  'eu_sanctions',
  'gb_coh_disqualified',
] as const;
export type Feed = (typeof FEEDS)[number];

export type TierLimits = { monthlyQuota: number; rateLimitPerMinute: number; feeds: readonly Feed[] };

/** Per-tier entitlements from the pricing table (spec §9). */
export const TIER_LIMITS: Readonly<Record<Tier, TierLimits>> = {
  starter: { monthlyQuota: 1_000, rateLimitPerMinute: 10, feeds: ['ofac', 'peps'] },
  small: { monthlyQuota: 5_000, rateLimitPerMinute: 50, feeds: ['ofac', 'peps', 'regulatory', 'sanctions'] },
  medium: {
    monthlyQuota: 25_000,
    rateLimitPerMinute: 200,
    feeds: ['ofac', 'peps', 'regulatory', 'sanctions', 'wanted', 'crime', 'us_sanctions', 'eu_sanctions'],
  },
  large: { monthlyQuota: 100_000, rateLimitPerMinute: 500, feeds: FEEDS },
};
