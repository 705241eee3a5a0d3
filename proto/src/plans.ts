import { TIER_LIMITS, TIERS, type Feed, type Tier } from './clients/tiers.js';

/** One plan as sold: the price beside the tier's limits, which stay defined once in TIER_LIMITS. */
export type Plan = {
  tier: Tier;
  name: string;
  priceUsdPerMonth: number;
  monthlyQuota: number;
  rateLimitPerMinute: number;
  feeds: readonly Feed[];
};

const PRICES_USD: Readonly<Record<Tier, number>> = { starter: 99, small: 299, medium: 999, large: 2_499 };
const NAMES: Readonly<Record<Tier, string>> = { starter: 'Starter', small: 'Small', medium: 'Medium', large: 'Large' };

/** The plan catalogue served to the web apps (GET /api/v1/plans) — never copied into them. */
export const PLANS: readonly Plan[] = TIERS.map((tier) => ({
  tier,
  name: NAMES[tier],
  priceUsdPerMonth: PRICES_USD[tier],
  ...TIER_LIMITS[tier],
}));

export function planOf(tier: Tier): Plan {
  return PLANS.find((plan) => plan.tier === tier)!;
}
