import createClient, { type Client } from 'openapi-fetch';
import { retryingFetch, type RetryOptions } from './retries.js';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';
export { type Problem, unwrap, VigilError, VigilProblemError } from './errors.js';
export { retryingFetch, type RetryOptions } from './retries.js';
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookOptions,
} from './webhooks.js';

export type VigilClientOptions = {
  /** Your Vigil gateway, e.g. `https://api.vigil.example` (the Docs page shows it). */
  baseUrl: string;
  /** Your client's API key (64 hex characters); sent in the `x-api-key` header. */
  apiKey: string;
  /** A fetch of your own (tests, proxies); the global fetch by default. Retries wrap it. */
  fetch?: typeof globalThis.fetch;
  /** Retries with one Idempotency-Key (see retryingFetch); `{ maxRetries: 0 }` turns them off. */
  retry?: RetryOptions;
  /** Headers sent with every request, e.g. an `x-request-id`. */
  headers?: Record<string, string>;
};

/** A client whose paths, parameters, bodies and answers are typed from the gateway's OpenAPI document. */
export type VigilClient = Client<paths>;

/**
 * A typed client for the Vigil API. Each call answers `{ data, error, response }`: `data` when
 * the status is 2xx, else `error`, the problem+json body (`code`, `detail`, `errors[]`); `unwrap`
 * turns that into the data or a thrown VigilProblemError. Every POST carries an Idempotency-Key that
 * its retries repeat; network errors (then a thrown VigilError), 429, 503 and a 409 with Retry-After
 * are retried.
 */
export function createVigilClient(options: VigilClientOptions): VigilClient {
  if (!options.baseUrl) throw new Error('createVigilClient: baseUrl is required (the address of your Vigil gateway)');
  if (!options.apiKey) throw new Error('createVigilClient: apiKey is required');
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { ...options.headers, 'x-api-key': options.apiKey },
    // Bound at call time, so a test's or polyfill's later globalThis.fetch is the one used.
    fetch: retryingFetch(options.fetch ?? ((input, init) => globalThis.fetch(input, init)), options.retry),
  });
}
