import { migrateAndExit } from '@vigil/platform';
import { envSchema } from './env.js';
import { migrations } from '../migrations/index.js';

await migrateAndExit('auth', envSchema, { migrations });
