import type { AccountSummary } from '@vigil/proto';
import { isApiError } from '../api/api-error.js';
import type { AppDispatch } from '../app/store.js';
import { authApi } from './auth.api.js';

export type SubscriptionCheck = { hasSubscription: boolean; summary: AccountSummary | null };

/** Only `active` counts (spec §3); payment_failed, cancelled and past_due do not. */
export function hasActiveSubscription(summary: AccountSummary | null | undefined): boolean {
  return summary?.client.subscription_status === 'active';
}

/**
 * Asks the gateway for the caller's account. 404 means no client yet (no plan
 * bought), which is an answer, not a failure; anything else is thrown as an ApiError.
 */
export async function checkSubscription(dispatch: AppDispatch): Promise<SubscriptionCheck> {
  const request = dispatch(authApi.endpoints.getAccountSummary.initiate(undefined, { subscribe: false }));
  try {
    const summary = await request.unwrap();
    return { hasSubscription: hasActiveSubscription(summary), summary };
  } catch (error) {
    if (isApiError(error) && error.status === 404 && error.code !== 'ROUTE_NOT_FOUND') return { hasSubscription: false, summary: null };
    throw error;
  }
}

/** Spec §4: up to 3 retries, waiting 1 s, 2 s, then 3 s. */
export const ACCESS_RETRY_LIMIT = 3;
export const retryDelayMs = (attempt: number) => attempt * 1000;
