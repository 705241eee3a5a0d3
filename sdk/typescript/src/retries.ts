import { VigilError } from './errors.js';

export type RetryOptions = {
  /** How many times a request is retried after a network error, a 429 or a 503 (default 3; 0 for none). */
  maxRetries?: number;
  /** The first retry's longest wait when the answer has no Retry-After, in ms (default 500, doubled each time). */
  backoffMs?: number;
  /** Waits between attempts; tests replace it. Rejects when the request's signal aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
};

/** Caps a server's Retry-After, so a misconfigured proxy cannot park a caller for hours. */
const MAX_RETRY_AFTER_MS = 60_000;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', abort, { once: true });
  });
}

/**
 * 429 and 503 say "try again later"; so does a 409 with Retry-After for an Idempotency-Key whose
 * first attempt is still running (after a network error, say). Nothing else is retried: a 4xx
 * would fail again, a 500 may have run.
 */
function retryable(response: Response, request: Request): boolean {
  if (response.status === 429 || response.status === 503) return true;
  return response.status === 409 && response.headers.has('retry-after') && request.headers.has('idempotency-key');
}

function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  const seconds = value === null || value.trim() === '' ? NaN : Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : undefined;
}

/**
 * A fetch that gives every POST an Idempotency-Key (the caller's, else a random UUID) which its
 * retries repeat, so a retried screening is answered and counted once; and that retries network
 * errors, 429 and 503 (and a 409 with Retry-After) up to `maxRetries` times, after the answer's
 * Retry-After or a full-jitter exponential backoff, so many clients retrying together do not
 * arrive together. The last answer, whatever its status, is returned as it came.
 */
export function retryingFetch(fetch: typeof globalThis.fetch, options: RetryOptions = {}): typeof globalThis.fetch {
  const maxRetries = options.maxRetries ?? 3;
  const backoffMs = options.backoffMs ?? 500;
  const wait = options.sleep ?? sleep;
  const backoff = (attempt: number) => Math.random() * backoffMs * 2 ** attempt;
  return async (input, init) => {
    let request = new Request(input, init);
    if (request.method === 'POST' && !request.headers.has('idempotency-key')) {
      const headers = new Headers(request.headers);
      headers.set('idempotency-key', crypto.randomUUID());
      request = new Request(request, { headers });
    }
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= maxRetries;
      let response: Response;
      try {
        // A clone per attempt: a body can be read once, and every retry resends it.
        response = await fetch(last ? request : request.clone());
      } catch (error) {
        if (last || request.signal.aborted) {
          throw new VigilError(`${request.method} ${request.url} failed after ${attempt + 1} attempts: ${error}`, {
            cause: error,
          });
        }
        await wait(backoff(attempt), request.signal);
        continue;
      }
      if (last || !retryable(response, request)) return response;
      await response.body?.cancel();
      await wait(retryAfterMs(response) ?? backoff(attempt), request.signal);
    }
  };
}
