import { baseEnvSchema, envSchemas, productionRules } from '@vigil/platform';
import { z } from 'zod';

const { bool, encryptionKey } = envSchemas;

/**
 * Used only outside production when MONITORING_ENCRYPTION_KEY is unset, so `npm start` and tests
 * need no setup and webhook secrets are still never stored as they are. It is public (it is in
 * this file): anything sealed with it is as good as plain, which is why production requires a key.
 */
export const DEVELOPMENT_ENCRYPTION_KEY = Buffer.from('vigil-monitoring-dev-key-32bytes', 'utf8');
const ms = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);

export const envSchema = baseEnvSchema
  .extend({
    NODE_ENV: z.string().default('development'),
    DB_SCHEMA: envSchemas.dbSchema.default('monitoring'),
    /** Run scheduled checks here (every replica may: claims are row locks, each entity is checked once). */
    MONITORING_SCHEDULER: bool.default(true),
    /** How often the scheduler looks for due checks. */
    SCHEDULER_INTERVAL_MS: ms(200, 3_600_000, 5_000),
    /** Entities claimed per pass (one bulk screen per client in it, ≤ 1,000 names each). */
    SCHEDULER_BATCH: z.coerce.number().int().min(1).max(5_000).default(1_000),
    /** A claimed check not finished in this time (a crashed replica) is due again. */
    CHECK_LEASE_MS: ms(1_000, 3_600_000, 300_000),
    /**
     * Follow events: lists.v1.updated (durable `monitoring-list-updates`, re-screens the delta),
     * screening.v1.screened review items (durable `monitoring-review-items`) and bulk.v1.job-completed.
     */
    EVENT_CONSUMERS: bool.default(true),
    LIST_UPDATES_ACK_WAIT_MS: ms(1_000, 600_000, 30_000),
    /** Deadline of one screening.v1.bulk-screen request. */
    SCREEN_TIMEOUT_MS: ms(1_000, 600_000, 60_000),
    /** Deliver webhooks from this replica (claims are row locks, each delivery is sent by one). */
    WEBHOOK_WORKER: bool.default(true),
    WEBHOOK_POLL_MS: ms(50, 60_000, 1_000),
    /** First retry after this long, doubling each attempt (30 s, 1 min, 2 min, … capped at 6 h). */
    WEBHOOK_RETRY_BASE_MS: ms(10, 3_600_000, 30_000),
    WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(30).default(10),
    WEBHOOK_TIMEOUT_MS: ms(100, 60_000, 10_000),
    /**
     * Local mode, development only: accept http:// and loopback (127.0.0.0/8, ::1) webhook targets, so
     * tests and a developer's laptop can receive on 127.0.0.1. Private, link-local and reserved
     * targets stay refused either way, and so does this variable under production's rules.
     */
    WEBHOOK_ALLOW_LOOPBACK: bool.default(false),
    /**
     * Seals each webhook endpoint's signing secret at rest (AES-256-GCM, the platform's sealSecret):
     * the deliverer must read it back to sign, so it cannot be hashed. 32 bytes, base64.
     */
    MONITORING_ENCRYPTION_KEY: encryptionKey,
  })
  .superRefine((config, ctx) => {
    // A production monitoring that posts to its own loopback would let a client reach whatever
    // listens beside it (a sidecar, an admin port) and read the status codes in its delivery log.
    if (productionRules(config.NODE_ENV) && config.WEBHOOK_ALLOW_LOOPBACK) {
      ctx.addIssue({
        code: 'custom',
        path: ['WEBHOOK_ALLOW_LOOPBACK'],
        message:
          `is local mode (webhooks to 127.0.0.1) and is refused with NODE_ENV=${config.NODE_ENV}: ` +
          'unset it, or run with NODE_ENV=development or test',
      });
    }
    if (productionRules(config.NODE_ENV) && !config.MONITORING_ENCRYPTION_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['MONITORING_ENCRYPTION_KEY'],
        message: 'is required in production (openssl rand -base64 32)',
      });
    }
  })
  .transform(({ MONITORING_ENCRYPTION_KEY, ...config }) => ({
    ...config,
    MONITORING_ENCRYPTION_KEY: MONITORING_ENCRYPTION_KEY ?? DEVELOPMENT_ENCRYPTION_KEY,
  }));

export type MonitoringConfig = z.infer<typeof envSchema>;
