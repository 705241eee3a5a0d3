import { z } from 'zod';

/** Thrown when the environment cannot be parsed; the message names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p.variable}: ${p.message}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const natsUrl = z
  .string()
  .min(1)
  .refine(
    (value) =>
      value.split(',').every((part) => {
        try {
          const url = new URL(part.trim());
          return ['nats:', 'tls:', 'ws:', 'wss:'].includes(url.protocol) && url.hostname !== '';
        } catch {
          return false;
        }
      }),
    { message: 'must be one or more comma-separated nats://host:port URLs' },
  );

const postgresUrl = z
  .string()
  .min(1)
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return ['postgres:', 'postgresql:'].includes(url.protocol);
      } catch {
        return false;
      }
    },
    { message: 'must be a postgres://user@host:port/database URL' },
  );

/** A NATS user's NKey seed (a private key: "SU" then 56 base32 characters). */
const nkeySeed = z.string().regex(/^SU[A-Z2-7]{56}$/, 'must be an NKey user seed (SU…, 58 characters)');

const port = z.coerce.number().int().min(0).max(65535);

/** A service's own Postgres schema (DB_SCHEMA): quoted into SQL, so a lowercase identifier only. */
const dbSchema = z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lowercase Postgres identifier');

/** A switch: true/false or 1/0. */
const bool = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

/** An http(s) base URL, without its trailing slashes (paths are appended to it). */
const httpUrl = z.url({ protocol: /^https?$/ }).transform((value) => value.replace(/\/+$/, ''));

/** A comma-separated list: entries trimmed, empty ones dropped ("a, b,," is [a, b]). */
const commaList = z.string().transform((value) =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean),
);

/**
 * A 32-byte AES-256 key given as base64 (what sealSecret takes). Optional: each service says
 * what happens when it is unset (a public development key outside production).
 */
const encryptionKey = z
  .string()
  .transform((value) => Buffer.from(value, 'base64'))
  .refine((key) => key.length === 32, { message: 'must be 32 bytes, base64-encoded (openssl rand -base64 32)' })
  .optional();

/** Variables every service reads. Services extend this with their own. */
export const baseEnvSchema = z.object({
  NATS_URL: natsUrl.default('nats://127.0.0.1:4222'),
  /**
   * Where the service's data is, and as whom: in a deployment, the service's own role
   * (`vigil_<service>`, see serviceRole) with its own password, which holds only DML on the
   * service's schema. Given another user (the schema's owner: tests, a bare local run), the
   * service still connects as its role, with that URL's password.
   */
  DATABASE_URL: postgresUrl.default('postgres://postgres@127.0.0.1:5432/vigil'),
  /**
   * migrate.js only: the migration role (the schema's owner, allowed to create roles), which runs
   * the migrations and creates or updates the service's role with DATABASE_URL's password.
   * Unset: DATABASE_URL is the owner (tests, a bare local run). Never given to a running service.
   */
  MIGRATION_DATABASE_URL: postgresUrl.optional(),
  /**
   * How long a service (or migrate.js) started before Postgres keeps trying to reach it, with
   * backoff, before it exits 69; 0 tries once.
   */
  DATABASE_CONNECT_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(3_600).default(60),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * The fraction of successful requests that get an access-log line (info); every failed one gets
   * its line whatever this says. 1 logs every request (the tests that read them), 0 only failures.
   */
  ACCESS_LOG_SAMPLE: z.coerce.number().min(0).max(1).default(0.01),
  /** Internal probe port (/livez, /readyz) for orchestrators; unset = no probe server. */
  HEALTH_PORT: port.optional(),
  NATS_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(5_000),
  /**
   * The service's NKey seed: who it is on the bus, and so what it may publish and subscribe to
   * (@vigil/proto busPermissions). Unset connects without credentials, which a server with the
   * bus's authorization refuses; npm start, the tests and k8s give every service its own.
   */
  NATS_NKEY_SEED: nkeySeed.optional(),
  /** A CA bundle (PEM file) to verify the NATS server's certificate by, for tls:// servers signed by a private CA. */
  NATS_TLS_CA_FILE: z.string().min(1).optional(),
});

/** The NODE_ENV values under which development conveniences are allowed; see productionRules. */
const DEVELOPMENT_ENVS: readonly string[] = ['development', 'test'];

/**
 * Whether production's guards apply (a real encryption key, Stripe rather than the sandbox, SMTP
 * rather than the mailbox, HSTS): for every NODE_ENV but exactly `development` and `test`. Safe by
 * default: `staging`, `prod` or a typo get production's rules, not the public development key.
 * Unset NODE_ENV is `development` (each service's schema default), as `npm start` and the tests run.
 */
export function productionRules(nodeEnv: string): boolean {
  return !DEVELOPMENT_ENVS.includes(nodeEnv);
}

export const envSchemas = { natsUrl, nkeySeed, postgresUrl, port, dbSchema, bool, httpUrl, commaList, encryptionKey };

export type BaseConfig = z.infer<typeof baseEnvSchema>;

/**
 * Parses the environment once at boot into a frozen object. Nothing else in a
 * service reads process.env, so a bad value fails here with the variable named
 * instead of surfacing later as a confusing connection error.
 */
export function parseConfig<S extends z.ZodType<object>>(
  schema: S,
  env: Record<string, string | undefined> = process.env,
): Readonly<z.infer<S>> {
  // Empty strings mean "unset": docker-compose and k8s often pass VAR= for optional values.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => ({
        variable: issue.path.map(String).join('.') || '(environment)',
        message: issue.message,
      })),
    );
  }
  return Object.freeze(result.data);
}
