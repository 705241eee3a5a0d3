import { baseEnvSchema, envSchemas } from '@vigil/platform';
import { z } from 'zod';

export const envSchema = baseEnvSchema.extend({
  PORT: envSchemas.port.default(8080),
  HOST: z.string().default('0.0.0.0'),
  /** Comma-separated origins allowed to call the API from a browser; empty = same-origin only. */
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((s) => s.trim()).filter(Boolean)),
  /** How long /health waits for each service before calling it down. */
  HEALTH_TIMEOUT_MS: z.coerce.number().int().min(100).max(10_000).default(1_500),
});

export type GatewayConfig = z.infer<typeof envSchema>;
