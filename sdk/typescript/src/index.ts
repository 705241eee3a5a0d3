import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';
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
  /** A fetch of your own (tests, proxies, retries); the global fetch by default. */
  fetch?: typeof globalThis.fetch;
  /** Headers sent with every request, e.g. an `x-request-id`. */
  headers?: Record<string, string>;
};

/** A client whose paths, parameters, bodies and answers are typed from the gateway's OpenAPI document. */
export type VigilClient = Client<paths>;

/**
 * A typed client for the Vigil API. Each call answers `{ data, error, response }`: `data` when
 * the status is 2xx, else `error`, the problem+json body (`code`, `detail`, `errors[]`).
 */
export function createVigilClient(options: VigilClientOptions): VigilClient {
  if (!options.baseUrl) throw new Error('createVigilClient: baseUrl is required (the address of your Vigil gateway)');
  if (!options.apiKey) throw new Error('createVigilClient: apiKey is required');
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { ...options.headers, 'x-api-key': options.apiKey },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
