import { baseEnvSchema, envSchemas, mailEnv, productionRules } from '@vigil/platform';
import { z } from 'zod';

const { httpUrl, encryptionKey } = envSchemas;
const optionalSecret = z
  .string()
  .optional()
  .transform((value) => (value && value.trim() !== '' ? value.trim() : undefined));

/**
 * Used only outside production when BILLING_ENCRYPTION_KEY is unset, so `npm start` and tests
 * need no setup. It is public (it is in this file): anything sealed with it is as good as plain.
 */
export const DEVELOPMENT_ENCRYPTION_KEY = Buffer.from('vigil-billing-development-key-32', 'utf8');

export const envSchema = baseEnvSchema
  .extend({
    NODE_ENV: z.string().default('development'),
    DB_SCHEMA: envSchemas.dbSchema.default('billing'),
    /** Base URL of the client web app: checkout success/cancel pages and the sandbox checkout page live there. */
    WEB_URL: httpUrl.default('http://localhost:3000'),
    /**
     * Both set: Stripe. Both unset: the sandbox provider (no network), which approves every
     * checkout, so it is for development and tests only: production refuses to boot without them.
     * One alone is a mistake.
     */
    STRIPE_SECRET_KEY: optionalSecret,
    STRIPE_WEBHOOK_SECRET: optionalSecret,
    /** Where the Stripe SDK sends its requests; tests point it at a local fake. Unset: api.stripe.com. */
    STRIPE_API_URL: httpUrl.optional(),
    /** Webhook signatures older than this are refused (Stripe's own default). */
    STRIPE_WEBHOOK_TOLERANCE_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
    /** An upgrade charging more than this now is refused (UPGRADE_COST_TOO_HIGH) rather than surprising a customer. */
    MAX_UPGRADE_CHARGE_USD: z.coerce.number().min(1).default(5_000),
    /** How often quota warnings, payment reminders and usage resets run on their own; 0 turns the schedule off. */
    BILLING_CHECK_INTERVAL_MS: z.coerce
      .number()
      .int()
      .min(0)
      .default(15 * 60_000),
    /** SMTP_URL (unset: mail waits in mail_outbox) and MAIL_FROM, as every service that mails. */
    ...mailEnv,
    /** How often the outbox worker looks for due mail; 0 turns it off (mail stays pending). */
    MAIL_OUTBOX_INTERVAL_MS: z.coerce.number().int().min(0).default(5_000),
    /** Attempts before a mail is dead (kept, with its last error, and never tried again). */
    MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
    /** The first retry waits this long, each next one twice as long (at most an hour). */
    MAIL_RETRY_BASE_MS: z.coerce.number().int().min(1_000).default(30_000),
    /**
     * 32 bytes, base64: encrypts a new API key while billing holds it (the checkout session until the
     * success page shows it, the mail outbox). Required in production; elsewhere a public development key.
     */
    BILLING_ENCRYPTION_KEY: encryptionKey,
  })
  .superRefine((config, ctx) => {
    if (Boolean(config.STRIPE_SECRET_KEY) !== Boolean(config.STRIPE_WEBHOOK_SECRET)) {
      ctx.addIssue({
        code: 'custom',
        path: [config.STRIPE_SECRET_KEY ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY'],
        message: 'set both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET for Stripe, or neither for the sandbox provider',
      });
    }
    if (productionRules(config.NODE_ENV) && !config.STRIPE_SECRET_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_SECRET_KEY'],
        message:
          'is required in production (with STRIPE_WEBHOOK_SECRET): the sandbox provider is for development and tests',
      });
    }
    if (productionRules(config.NODE_ENV) && !config.BILLING_ENCRYPTION_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['BILLING_ENCRYPTION_KEY'],
        message: 'is required in production (openssl rand -base64 32)',
      });
    }
  })
  .transform(({ BILLING_ENCRYPTION_KEY, ...config }) => ({
    ...config,
    BILLING_ENCRYPTION_KEY: BILLING_ENCRYPTION_KEY ?? DEVELOPMENT_ENCRYPTION_KEY,
  }));

export type BillingConfig = z.infer<typeof envSchema>;
export const BILLING_CONFIG = Symbol('BILLING_CONFIG');
