import { STORAGE_PREFIX } from '@vigil/ui';
import { TIERS, type Tier } from '@vigil/proto';

const KEY = `${STORAGE_PREFIX}selected-plan`;

/** The plan picked on Pricing survives the detour through sign-up, so onboarding can start from it. */
export function rememberSelectedPlan(tier: Tier): void {
  try {
    sessionStorage.setItem(KEY, tier);
  } catch (error) {
    console.warn('Remembering the selected plan failed', error);
  }
}

export function readSelectedPlan(): Tier | null {
  try {
    const value = sessionStorage.getItem(KEY);
    return (TIERS as readonly string[]).includes(value ?? '') ? (value as Tier) : null;
  } catch {
    return null;
  }
}
