import { streams } from '@vigil/proto';
import type { StreamSpec } from '@vigil/platform';

/**
 * The streams the gateway publishes to, created at boot by PlatformModule (by the HTTP gateway
 * and by every standalone bulk worker, whichever starts first): security events, quota
 * crossings, bulk-job chunks (a work queue) and completions, and admin actions.
 */
export const GATEWAY_STREAMS: readonly StreamSpec[] = [
  { ...streams.security, maxAgeDays: 90 },
  { ...streams.quota, maxAgeDays: 90 },
  { ...streams.bulkJobs, maxAgeDays: 7, retention: 'workqueue' },
  { ...streams.bulkJobEvents, maxAgeDays: 7 },
  { ...streams.adminActions, maxAgeDays: 90 },
];
