import { isApiError } from '@vigil/ui';

/**
 * The sentence shown under the sign-in form for a failed request: the gateway's own
 * problem+json wording when it sent one (the ApiError's message), otherwise the spec's
 * texts for network failures and timeouts.
 */
export function describeSignInError(error: unknown): string {
  if (!isApiError(error)) return 'An unexpected error occurred.';
  const { status, message, code } = error;
  if (status === 0) {
    return message === 'Network error' ? 'Network error. Please check your connection and try again.' : message;
  }
  if (code === 'ROUTE_NOT_FOUND') return 'Sign-in is not available on this gateway yet.';
  // toApiError answers "HTTP {status}" when the body carried no words of its own.
  if (message !== `HTTP ${status}` && !message.startsWith(`Server returned ${status}`)) return message;
  if (status === 401) return 'The email or password is incorrect.';
  if (status === 429) return 'Too many sign-in attempts. Please wait a moment and try again.';
  return `Sign-in failed (HTTP ${status}). Please try again.`;
}
