import { loadConfigOrExit, migrateAndExit } from '@vigil/platform';
import { envSchema } from './env.js';
import { migrations } from '../migrations/index.js';
import { useSealingKey } from '../migrations/1764200000000-seal-webhook-secrets.js';

// SealWebhookSecrets1764200000000 seals webhook secrets stored before sealing, under the service's own key.
useSealingKey(loadConfigOrExit('monitoring', envSchema).MONITORING_ENCRYPTION_KEY);
await migrateAndExit('monitoring', envSchema, { migrations });
