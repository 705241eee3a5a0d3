import { ROOT_CONTEXT, context } from '@opentelemetry/api';
import { AsyncLocalStorage } from 'node:async_hooks';
import { REQUEST_ID_PATTERN } from '@vigil/proto';
import { randomUUID } from 'node:crypto';

export type RequestContext = { requestId: string };

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` with a request id that logs and outgoing NATS requests pick up. */
export function runWithRequestId<T>(requestId: string | undefined, fn: () => T): T {
  return storage.run({ requestId: sanitizeRequestId(requestId) ?? randomUUID() }, fn);
}

/**
 * Runs `fn` outside any request: no request id, no trace. For background work started from a
 * request (a timer, a worker loop) that outlives it and does other callers' work too: it must not
 * log or trace that work under the request that happened to start it.
 */
export function runDetached<T>(fn: () => T): T {
  return storage.exit(() => context.with(ROOT_CONTEXT, fn));
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

// A caller-supplied id ends up in our logs: keep it short and printable.
export function sanitizeRequestId(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return REQUEST_ID_PATTERN.test(value) ? value : undefined;
}
