import { currentRequestId } from '@vigil/platform';
import { API_KEY_PREFIX_LENGTH, REQUEST_ID_HEADER, SECURITY_EVENT_ENDPOINT_MAX } from '@vigil/proto';
import type { Request } from 'express';

// What of a request the audit trail keeps for good (issue #33). The security log is immutable
// and most of its events are caused by callers without credentials, so it keeps no secret from
// the path and nothing a stranger could use to stuff it.

/** A run of hex long enough to be an API key (64) or a mistyped one: only its prefix is kept. */
const KEY_LIKE = /[0-9a-f]{32,}/gi;

/**
 * The path of a request as the logs record it: no query string, every key-like run cut to the
 * prefix the console shows for keys (the admin "find client by key" route has the key in its
 * path), and at most SECURITY_EVENT_ENDPOINT_MAX characters.
 */
export function loggedEndpoint(originalUrl: string): string {
  const path = originalUrl.split('?')[0]!.replace(KEY_LIKE, (run) => `${run.slice(0, API_KEY_PREFIX_LENGTH)}…`);
  return path.length <= SECURITY_EVENT_ENDPOINT_MAX ? path : `${path.slice(0, SECURITY_EVENT_ENDPOINT_MAX - 1)}…`;
}

/**
 * The request id a security event is filed under. A caller's own x-request-id is adopted for
 * correlation (echoed, in the logs and on NATS), but a caller without credentials may not
 * choose the id of an entry in the immutable log: its events carry the id only when the gateway
 * issued it.
 */
export function loggedRequestId(req: Request, authenticated: boolean): string | null {
  const id = currentRequestId();
  if (!id) return null;
  return authenticated || id !== req.header(REQUEST_ID_HEADER) ? id : null;
}
