import { baseEnvSchema, envSchemas } from '@vigil/platform';
import { z } from 'zod';

export const envSchema = baseEnvSchema.extend({
  DB_SCHEMA: envSchemas.dbSchema.default('monitoring'),
});

export type MonitoringConfig = z.infer<typeof envSchema>;
