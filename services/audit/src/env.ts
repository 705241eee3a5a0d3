import { baseEnvSchema } from '@vigil/platform';
import { z } from 'zod';

const identifier = z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lowercase Postgres identifier');
const DAY_HOURS = 24;

export const envSchema = baseEnvSchema.extend({
  DB_SCHEMA: identifier.default('audit'),
  /**
   * The role the service's connections take (SET ROLE at connect): INSERT and SELECT on the audit
   * tables, no UPDATE or DELETE. Created by the migration; the login role must be a member of it.
   */
  AUDIT_DB_ROLE: identifier.default('vigil_audit_append'),
  /** Events stored per transaction at most. */
  AUDIT_BATCH_SIZE: z.coerce.number().int().min(1).max(5_000).default(500),
  /** An event not acknowledged in this time (the service died holding it) is delivered again. */
  AUDIT_ACK_WAIT_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  /** Retention of screenings, review decisions and admin actions (default 7 years). */
  AUDIT_RETENTION_SCREENING_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .default(7 * 365 + 2),
  /** Retention of security events (default 2 years). */
  AUDIT_RETENTION_SECURITY_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .default(2 * 365 + 1),
  /** How often the service applies retention; 0 = never (run `npm run audit:retention` instead). */
  AUDIT_RETENTION_EVERY_HOURS: z.coerce
    .number()
    .min(0)
    .max(30 * DAY_HOURS)
    .default(DAY_HOURS),
});

export type AuditConfig = z.infer<typeof envSchema>;
