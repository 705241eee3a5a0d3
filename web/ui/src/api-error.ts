/** Every failed call as the screens see it: a status (0 = no answer) and words a person can read. */
export type ApiError = { status: number; message: string; code?: string };

type RawError =
  | { status: number; data: unknown }
  | { status: 'FETCH_ERROR' | 'TIMEOUT_ERROR'; error: string }
  | { status: 'PARSING_ERROR'; originalStatus: number; data: string; error: string }
  | { status: 'CUSTOM_ERROR'; error: string; data?: unknown };

function fieldOf(body: unknown, key: string): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const value = (body as Record<string, unknown>)[key];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/**
 * The spec's request-error rules (§8): a JSON error body gives its message (our
 * gateway's RFC 9457 `detail` first, then `error` or `message`), else "HTTP {status}";
 * a reply that is not JSON gives "Server returned {status}: {statusText}";
 * no answer at all is status 0, "Network error".
 */
export function toApiError(raw: RawError, statusText = ''): ApiError {
  if (raw.status === 'FETCH_ERROR') return { status: 0, message: 'Network error' };
  if (raw.status === 'TIMEOUT_ERROR') return { status: 0, message: 'Request timed out. Please try again.' };
  if (raw.status === 'PARSING_ERROR') {
    return { status: raw.originalStatus, message: `Server returned ${raw.originalStatus}: ${statusText}`.trim() };
  }
  if (raw.status === 'CUSTOM_ERROR') return { status: 0, message: raw.error };
  if (typeof raw.status !== 'number') return { status: 0, message: 'Network error' };
  const message = fieldOf(raw.data, 'detail') ?? fieldOf(raw.data, 'error') ?? fieldOf(raw.data, 'message');
  const code = fieldOf(raw.data, 'code');
  return { status: raw.status, message: message ?? `HTTP ${raw.status}`, ...(code ? { code } : {}) };
}

export function isApiError(value: unknown): value is ApiError {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as ApiError).status === 'number' &&
    typeof (value as ApiError).message === 'string'
  );
}

/** Words for any error a hook hands back, for places that only show a message. */
export function errorMessage(error: unknown, fallback = 'An unexpected error occurred.'): string {
  return isApiError(error) ? error.message : fallback;
}
