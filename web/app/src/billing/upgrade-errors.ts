/** Spec §8: the server's upgrade errors, in words a customer can act on. */
const SERVER_ERRORS: [pattern: RegExp, text: string][] = [
  [/stripe customer not found|customer not found/i, 'We could not find your billing account. Please complete your initial setup first.'],
  [/stripe customer deleted|customer deleted/i, 'Your billing account was removed. Please contact support.'],
  [/invalid tier|valid tier is required|tier cannot be empty/i, 'That plan is not available. Please choose another one.'],
  [/already on/i, 'You are already on this plan.'],
  [/cannot downgrade/i, 'Downgrades are made from the billing portal.'],
  [/subscription not active/i, 'Your subscription is not active. Please update your payment method first.'],
  [/invalid upgrade cost|cost calculation error/i, 'We could not calculate the cost of this upgrade. Please try again or contact support.'],
  [/upgrade cost too high/i, 'This upgrade needs a manual review. Please contact support.'],
  [/payment processing error/i, 'Your payment could not be processed. Please check your payment method.'],
  [/database error/i, 'There was an issue processing your upgrade. Please try again or contact support.'],
  [/invalid request body|invalid client data|invalid client tier/i, 'The upgrade request was not valid. Please refresh the page and try again.'],
];

/** Spec §8 "Upgrade Failed": the toast description for an error from POST /api/upgrade/upgrade. */
export function upgradeFailureMessage(error: { status: number; message: string }): string {
  const message = error.message;
  if (/authentication expired|no active session|unauthori[sz]ed/i.test(message) || error.status === 401) {
    return 'Your session has expired. Please refresh the page and try again.';
  }
  if (/api key not available/i.test(message)) return 'Authentication issue. Please refresh the page and try again.';
  if (/upgrade processing error/i.test(message)) return 'There was an issue processing your upgrade. Please try again or contact support.';
  if (/timed out|timeout/i.test(message)) return 'Request timed out. Please try again.';
  if (error.status === 0) return 'Network error. Please check your connection and try again.';
  const known = SERVER_ERRORS.find(([pattern]) => pattern.test(message));
  return known ? known[1] : 'Failed to process upgrade. Please try again.';
}
