import { baseEnvSchema, envSchemas } from '@vigil/platform';
import { z } from 'zod';

export const envSchema = baseEnvSchema.extend({
  DB_SCHEMA: envSchemas.dbSchema.default('audit'),
});

export type AuditConfig = z.infer<typeof envSchema>;
