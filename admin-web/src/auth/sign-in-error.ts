import { ERROR_TITLES, isErrorCode, type ProblemDetails } from '@vigil/proto';

function isProblem(value: unknown): value is Partial<ProblemDetails> {
  return typeof value === 'object' && value !== null && ('title' in value || 'detail' in value || 'code' in value);
}

/**
 * The sentence shown under the sign-in form for a failed request: the gateway's
 * own problem+json wording when it sent one, otherwise the spec's texts for
 * network failures and timeouts.
 */
export function describeSignInError(error: unknown): string {
  if (typeof error !== 'object' || error === null || !('status' in error)) {
    return 'An unexpected error occurred.';
  }
  const { status, data } = error as { status: unknown; data?: unknown };
  if (status === 'FETCH_ERROR') return 'Network error. Please check your connection and try again.';
  if (status === 'TIMEOUT_ERROR') return 'Request timed out. Please try again.';

  if (isProblem(data)) {
    if (data.code === 'ROUTE_NOT_FOUND') return 'Sign-in is not available on this gateway yet.';
    if (typeof data.detail === 'string' && data.detail.trim() !== '') return data.detail;
    if (typeof data.title === 'string' && data.title.trim() !== '') return data.title;
    if (isErrorCode(data.code)) return ERROR_TITLES[data.code];
  }
  if (status === 401) return 'The email or password is incorrect.';
  if (status === 429) return 'Too many sign-in attempts. Please wait a moment and try again.';
  return typeof status === 'number'
    ? `Sign-in failed (HTTP ${status}). Please try again.`
    : 'An unexpected error occurred.';
}
