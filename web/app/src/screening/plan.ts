import { PLANS, type Plan } from '@vigil/proto';

/** The plan of a tier, from the one catalogue in proto. */
export function planOf(tier: string): Plan | undefined {
  return PLANS.find((plan) => plan.tier === tier);
}
