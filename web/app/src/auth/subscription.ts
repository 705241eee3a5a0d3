import type { SubscriptionCheckResponse } from '@vigil/proto';
import type { AppDispatch } from '../app/store.js';
import { billingApi } from '../billing/billing.api.js';

/**
 * The `hasSubscription` check (spec §3, §4): billing's `GET /api/payment/subscription`,
 * which answers for the signed-in user whether their client's subscription is
 * `active` (payment_failed, cancelled and past_due are not). Always asked afresh:
 * right after a payment or a lapse the answer must not come from a cache.
 * A failure is thrown as an ApiError for the caller's retry rules.
 */
export async function checkSubscription(dispatch: AppDispatch): Promise<SubscriptionCheckResponse> {
  const request = dispatch(
    billingApi.endpoints.getSubscription.initiate(undefined, { subscribe: false, forceRefetch: true }),
  );
  return request.unwrap();
}

/** Spec §4: up to 3 retries, waiting 1 s, 2 s, then 3 s. */
export const ACCESS_RETRY_LIMIT = 3;
export const retryDelayMs = (attempt: number) => attempt * 1000;
