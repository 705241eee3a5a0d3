import { baseEnvSchema } from '@vigil/platform';
import { z } from 'zod';

export const envSchema = baseEnvSchema.extend({
  DB_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lowercase Postgres identifier').default('billing'),
});

export type BillingConfig = z.infer<typeof envSchema>;
