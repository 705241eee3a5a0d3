import { z } from 'zod';
import { FEEDS, TIER_LIMITS, TIERS, type Feed, type Tier } from './clients/tiers.js';

/** One plan as sold: the price beside the tier's limits, which stay defined once in TIER_LIMITS. */
export type Plan = {
  tier: Tier;
  name: string;
  priceUsdPerMonth: number;
  monthlyQuota: number;
  rateLimitPerMinute: number;
  feeds: readonly Feed[];
  /** round(12 × monthly × 0.8): a year paid at once is 20% off. */
  priceUsdPerYear: number;
  mostPopular: boolean;
  /** e.g. "under 500 ms". */
  responseTime: string;
  support: string;
  realTimeUpdates: boolean;
  webhookNotifications: boolean;
  webSocketAccess: boolean;
  dashboardAccess: boolean;
};

export const YEARLY_DISCOUNT = 0.2;
export const MOST_POPULAR_TIER: Tier = 'medium';
export const yearlyPriceUsd = (monthly: number) => Math.round(12 * monthly * 0.8);

type PlanExtras = Pick<
  Plan,
  'responseTime' | 'support' | 'realTimeUpdates' | 'webhookNotifications' | 'webSocketAccess' | 'dashboardAccess'
>;
// The pricing table (spec §9): what each tier adds beyond its limits.
const EXTRAS: Readonly<Record<Tier, PlanExtras>> = {
  starter: {
    responseTime: 'under 2 s',
    support: 'Email support',
    realTimeUpdates: false,
    webhookNotifications: false,
    webSocketAccess: false,
    dashboardAccess: false,
  },
  small: {
    responseTime: 'under 1 s',
    support: 'Priority email support',
    realTimeUpdates: true,
    webhookNotifications: true,
    webSocketAccess: false,
    dashboardAccess: false,
  },
  medium: {
    responseTime: 'under 500 ms',
    support: 'Phone and email support',
    realTimeUpdates: true,
    webhookNotifications: true,
    webSocketAccess: true,
    dashboardAccess: true,
  },
  large: {
    responseTime: 'under 200 ms',
    support: '24/7 support',
    realTimeUpdates: true,
    webhookNotifications: true,
    webSocketAccess: true,
    dashboardAccess: true,
  },
};

const PRICES_USD: Readonly<Record<Tier, number>> = { starter: 99, small: 299, medium: 999, large: 2_499 };
const NAMES: Readonly<Record<Tier, string>> = { starter: 'Starter', small: 'Small', medium: 'Medium', large: 'Large' };

/** The plan catalogue served to the web apps (GET /api/v1/plans) — never copied into them. */
export const PLANS: readonly Plan[] = TIERS.map((tier) => ({
  tier,
  name: NAMES[tier],
  priceUsdPerMonth: PRICES_USD[tier],
  ...TIER_LIMITS[tier],
  priceUsdPerYear: yearlyPriceUsd(PRICES_USD[tier]),
  mostPopular: tier === MOST_POPULAR_TIER,
  ...EXTRAS[tier],
}));

export function planOf(tier: Tier): Plan {
  return PLANS.find((plan) => plan.tier === tier)!;
}

/** `GET /api/plans` and `GET /api/v1/plans`: the catalogue as served (checked against Plan at compile time). */
export const plansResponseSchema: z.ZodType<{ plans: readonly Plan[] }> = z.object({
  plans: z.array(
    z.object({
      tier: z.enum(TIERS),
      name: z.string(),
      priceUsdPerMonth: z.number(),
      monthlyQuota: z.number().int(),
      rateLimitPerMinute: z.number().int(),
      feeds: z.array(z.enum(FEEDS)),
      priceUsdPerYear: z.number(),
      mostPopular: z.boolean(),
      responseTime: z.string(),
      support: z.string(),
      realTimeUpdates: z.boolean(),
      webhookNotifications: z.boolean(),
      webSocketAccess: z.boolean(),
      dashboardAccess: z.boolean(),
    }),
  ),
});
