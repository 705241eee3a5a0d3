/**
 * One sentence for a person, from the error a failed `/health` request reports.
 * Written against the shape of RTK Query's fetchBaseQuery errors (and serialized
 * exceptions) without importing Redux, so the UI package stays free of it.
 */
export function describeHealthError(error: unknown): string | undefined {
  if (error === undefined || error === null) return undefined;
  if (typeof error !== 'object' || !('status' in error)) return 'The health check failed unexpectedly.';
  const {
    status,
    originalStatus,
    error: text,
  } = error as { status: unknown; originalStatus?: unknown; error?: unknown };
  switch (status) {
    case 'FETCH_ERROR':
      return 'Could not reach the gateway. Check your connection and try again.';
    case 'TIMEOUT_ERROR':
      return 'The gateway did not answer in time.';
    case 'PARSING_ERROR':
      return `The gateway answered ${String(originalStatus)} with a body that is not a health report.`;
    case 'CUSTOM_ERROR':
      return typeof text === 'string' ? text : 'The health check failed unexpectedly.';
    default:
      return typeof status === 'number'
        ? `The gateway answered ${status} with a body that is not a health report.`
        : 'The health check failed unexpectedly.';
  }
}
