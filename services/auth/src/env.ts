import { baseEnvSchema, envSchemas, mailEnv, productionRules } from '@vigil/platform';
import { z } from 'zod';

const seconds = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const { httpUrl, commaList, encryptionKey } = envSchemas;
const emails = commaList.transform((entries) => entries.map((entry) => entry.toLowerCase()));

/**
 * Used only outside production when AUTH_ENCRYPTION_KEY is unset, so `npm start` and tests need
 * no setup and secrets are still never stored as they are. It is public (it is in this file):
 * anything sealed with it is as good as plain, which is why production requires a key of its own.
 */
export const DEVELOPMENT_ENCRYPTION_KEY = Buffer.from('vigil-auth-development-key-32-b!', 'utf8');

const { bool: flag } = envSchemas;

export const envSchema = baseEnvSchema
  .extend({
    NODE_ENV: z.string().default('development'),
    /**
     * Set by `npm start`'s stack and the test harnesses, nowhere else: with NODE_ENV development or
     * test (see productionRules) it turns on the development mailbox's listing (for administrators only).
     */
    VIGIL_DEV_STACK: flag.default(false),
    DB_SCHEMA: envSchemas.dbSchema.default('auth'),

    /** Access tokens: `iss` and `aud` claims; the gateway learns both from auth.v1.jwks. */
    JWT_ISSUER: z.string().min(1).default('vigil-auth'),
    JWT_AUDIENCE: z.string().min(1).default('vigil-api'),
    ACCESS_TOKEN_TTL_SECONDS: seconds(30, 3600).default(900),
    /** Refresh-token lifetime without and with "Remember me". */
    SESSION_TTL_HOURS: seconds(1, 24 * 7).default(24),
    REMEMBER_ME_TTL_DAYS: seconds(1, 365).default(30),
    /** A rotated refresh token presented again this soon, before any newer one was used, is a lost answer, not theft (0: never). */
    REFRESH_TOKEN_REUSE_SECONDS: seconds(0, 60).default(10),

    // OWASP's argon2id baseline (19 MiB, 2 passes). Tests lower these; production never should.
    ARGON2_MEMORY_KIB: seconds(1024, 1024 * 1024).default(19_456),
    ARGON2_TIME_COST: seconds(1, 10).default(2),

    /**
     * Brute force: this many failed sign-ins for one email from one client address within the
     * window lock that address out of the account for the rest of the window; the owner elsewhere
     * still signs in (the address is the gateway's, through its TRUSTED_PROXIES).
     */
    LOGIN_MAX_FAILURES: seconds(1, 1000).default(10),
    /** The same for one email from all addresses together (guesses spread over many): the account is locked everywhere. */
    LOGIN_MAX_FAILURES_PER_ACCOUNT: seconds(1, 100_000).default(50),
    LOGIN_WINDOW_SECONDS: seconds(1, 86_400).default(900),
    /** The same per IP, across emails (password spraying); high enough for an office behind one NAT. */
    LOGIN_MAX_FAILURES_PER_IP: seconds(1, 100_000).default(100),

    /** Base URL of the web app; e-mail links and the Google redirect point here. */
    WEB_URL: httpUrl.default('http://localhost:3000'),

    /**
     * `smtp` sends through SMTP_URL (required in production). `mailbox` also keeps every message in
     * Postgres, listed by /auth/v1/dev/mailbox on a development stack only (see VIGIL_DEV_STACK), and
     * still sends it when SMTP_URL is set (`npm start` points it at its local SMTP catcher).
     */
    MAIL_TRANSPORT: z.enum(['mailbox', 'smtp']).default('mailbox'),
    ...mailEnv,

    /** Admins: an email on this allow-list that signs up with a valid invitation code. */
    ADMIN_EMAILS: emails.default(['admin@vigil.dev']),
    /** Sign-ups from this domain take the admin path (and are refused unless allow-listed). */
    ADMIN_EMAIL_DOMAIN: z.string().trim().toLowerCase().default('vigil.dev'),
    INVITATION_TTL_HOURS: seconds(1, 24 * 30).default(72),

    /** Google sign-in; unset client id = the button answers "not configured". */
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    GOOGLE_ISSUER: httpUrl.default('https://accounts.google.com'),
    /** Where Google sends the browser back: the web app's /auth/callback unless told. */
    OIDC_REDIRECT_URI: httpUrl.optional(),

    MFA_ISSUER: z.string().min(1).default('Vigil'),
    /**
     * 32 bytes, base64: seals TOTP secrets and the JWT signing key's private half at rest. Required in
     * production; elsewhere the public DEVELOPMENT_ENCRYPTION_KEY. Every process (main, migrate, seed) needs the same.
     */
    AUTH_ENCRYPTION_KEY: encryptionKey,
  })
  .superRefine((value, ctx) => {
    if (productionRules(value.NODE_ENV) && value.MAIL_TRANSPORT !== 'smtp') {
      ctx.addIssue({
        code: 'custom',
        path: ['MAIL_TRANSPORT'],
        message: 'must be smtp in production (the mailbox keeps password-reset links in the database)',
      });
    }
    if (productionRules(value.NODE_ENV) && !value.AUTH_ENCRYPTION_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['AUTH_ENCRYPTION_KEY'],
        message: 'is required in production (openssl rand -base64 32)',
      });
    }
    if (value.MAIL_TRANSPORT === 'smtp' && !value.SMTP_URL) {
      ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: 'is required when MAIL_TRANSPORT=smtp' });
    }
    if (value.GOOGLE_CLIENT_ID && !value.GOOGLE_CLIENT_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['GOOGLE_CLIENT_SECRET'], message: 'is required with GOOGLE_CLIENT_ID' });
    }
  })
  .transform(({ AUTH_ENCRYPTION_KEY, ...config }) => ({
    ...config,
    AUTH_ENCRYPTION_KEY: AUTH_ENCRYPTION_KEY ?? DEVELOPMENT_ENCRYPTION_KEY,
  }));

export type AuthConfig = z.infer<typeof envSchema>;

/** The development mailbox is listed only on a development stack, never in production. */
export function devMailboxListed(config: Pick<AuthConfig, 'NODE_ENV' | 'VIGIL_DEV_STACK' | 'MAIL_TRANSPORT'>): boolean {
  return !productionRules(config.NODE_ENV) && config.VIGIL_DEV_STACK && config.MAIL_TRANSPORT === 'mailbox';
}

export const AUTH_CONFIG = Symbol('AUTH_CONFIG');
