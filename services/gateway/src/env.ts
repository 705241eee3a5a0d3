import { baseEnvSchema, envSchemas } from '@vigil/platform';
import { isIP } from 'node:net';
import { z } from 'zod';

const PROXY_PRESETS = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isCidr = (entry: string) => {
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address ?? '');
  return (
    extra === undefined && family !== 0 && /^\d{1,3}$/.test(bits ?? '') && Number(bits) <= (family === 4 ? 32 : 128)
  );
};

const { bool, commaList } = envSchemas;

const fields = baseEnvSchema.extend({
  /** `production` adds Strict-Transport-Security (TLS ends in front of the gateway there). */
  NODE_ENV: z.string().default('development'),
  PORT: envSchemas.port.default(8080),
  HOST: z.string().default('0.0.0.0'),
  /** Comma-separated origins allowed to call the API from a browser; empty = same-origin only. */
  CORS_ORIGINS: commaList.default([]),
  /**
   * Comma-separated proxies whose X-Forwarded-For the gateway believes (Express `trust proxy`):
   * addresses, CIDR ranges, or `loopback`, `linklocal`, `uniquelocal`. Empty (the default): none,
   * so the client address is the connecting one and a forged header cannot move a caller out of
   * (or another address into) the failed-auth limit. Set it to the ingress or web nginx hops.
   */
  TRUSTED_PROXIES: commaList
    .pipe(
      z.array(
        z
          .string()
          .refine(
            (entry) => PROXY_PRESETS.has(entry) || isIP(entry) !== 0 || isCidr(entry),
            'each entry must be an IP address, a CIDR range, loopback, linklocal or uniquelocal',
          ),
      ),
    )
    .default([]),
  /** How long /health waits for each service before calling it down. */
  HEALTH_TIMEOUT_MS: z.coerce.number().int().min(100).max(10_000).default(1_500),
  DB_SCHEMA: envSchemas.dbSchema.default('gateway'),
  /**
   * Apply the gateway's migrations at boot (under an advisory lock, so replicas do not race).
   * Deployments that run `migrate.js` as a Job first set this to false.
   */
  MIGRATE_ON_BOOT: bool.default(true),
  /** Rate-limit counters shared by every replica; unset = an in-memory limiter (one replica only). */
  REDIS_URL: z.string().url().optional(),
  /**
   * How long a resolved API key is trusted without asking auth again. The key-revoked event
   * evicts at once; this bound also holds if that event is lost, so it may not exceed 5 s.
   */
  KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(5_000).default(5_000),
  /**
   * Quota leases (src/quotas/quota-leases.service.ts): a lease its replica stopped renewing is
   * reclaimed after this long, so a killed replica withholds the unused part of its block at most
   * this long.
   */
  QUOTA_LEASE_TTL_SECONDS: z.coerce.number().int().min(1).max(3_600).default(30),
  /** How often a replica renews its quota leases and reclaims expired ones; well under the TTL. */
  QUOTA_LEASE_RENEW_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /** A quota lease unused this long is given back, so an idle replica does not sit on quota. */
  QUOTA_LEASE_IDLE_MS: z.coerce.number().int().min(100).default(60_000),
  /** Multiplies every tier's requests/minute. Only for load tests of the gateway itself; 1 in production. */
  RATE_LIMIT_SCALE: z.coerce.number().positive().max(10_000).default(1),
  /** Requests/minute for signed-in users on session-only routes (admin console, dashboard without a key). */
  SESSION_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(300),
  /**
   * Failed credential checks (bad key or token) one IP may make per minute; beyond it the IP gets
   * 429s without auth being asked, and a SUSPICIOUS_ACTIVITY event is published.
   */
  FAILED_AUTH_PER_MINUTE: z.coerce.number().int().positive().default(300),
  /**
   * Live streams (/api/monitoring/stream) one user may hold open on a replica; opening one more
   * ends their oldest. Streams also end with their session and when their user leaves the client.
   */
  LIVE_STREAMS_PER_USER: z.coerce.number().int().min(1).max(100).default(5),
  /** Run a bulk-job worker inside this process too (besides any dist/src/bulk-worker.js processes). */
  BULK_WORKER: bool.default(true),
  /** Names per work-queue message of an asynchronous bulk job. */
  BULK_CHUNK_SIZE: z.coerce.number().int().min(1).max(1_000).default(500),
  /** A chunk not acknowledged in this time (its worker died) is delivered to another worker. */
  BULK_ACK_WAIT_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  /**
   * Deliveries of a failing chunk before its rows are marked failed and the job completes (a
   * chunk screening refuses as invalid is not redelivered at all).
   */
  BULK_MAX_DELIVERIES: z.coerce.number().int().min(1).max(100).default(8),
  /** How long one chunk may wait for the screening service. */
  BULK_SCREEN_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(60_000),
  /** Idempotency records are kept at least this long. */
  IDEMPOTENCY_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(24)
    .max(24 * 30)
    .default(24),
  /**
   * How often a replica renews the Idempotency-Key claims of the requests it is still running.
   * Every 2 s: one statement per replica, and only while a keyed request is in flight.
   */
  IDEMPOTENCY_CLAIM_RENEW_MS: z.coerce.number().int().min(100).max(60_000).default(2_000),
  /**
   * A pending claim not renewed for this long belongs to a replica that died (SIGKILL, OOM, node
   * loss): a retry of its key takes it over and runs, so a client retrying after a crash gets 409s
   * for at most this long. 10 s is five renewals: a live replica must miss four in a row (a
   * saturated pool, a database failover, a stalled event loop) before a duplicate may run, and even
   * then the duplicate hands screening the same operation id, so it is not logged or charged twice.
   */
  IDEMPOTENCY_CLAIM_TAKEOVER_MS: z.coerce.number().int().min(1_000).max(600_000).default(10_000),
});

export const envSchema = fields.superRefine((config, ctx) => {
  if (config.IDEMPOTENCY_CLAIM_TAKEOVER_MS < 3 * config.IDEMPOTENCY_CLAIM_RENEW_MS) {
    ctx.addIssue({
      code: 'custom',
      path: ['IDEMPOTENCY_CLAIM_TAKEOVER_MS'],
      message: 'must be at least three IDEMPOTENCY_CLAIM_RENEW_MS, or a live request could lose its claim',
    });
  }
});

export type GatewayConfig = z.infer<typeof envSchema>;
