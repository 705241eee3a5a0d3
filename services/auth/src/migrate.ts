import { loadConfigOrExit, migrateAndExit } from '@vigil/platform';
import { envSchema } from './env.js';
import { migrations } from '../migrations/index.js';
import { useSealingKey } from '../migrations/1764100000004-seal-secrets.js';

// SealSecrets1764100000004 seals secrets stored before sealing, under the service's own key.
useSealingKey(loadConfigOrExit('auth', envSchema).AUTH_ENCRYPTION_KEY);
await migrateAndExit('auth', envSchema, { migrations });
