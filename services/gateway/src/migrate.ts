import { migrateAndExit } from '@vigil/platform';
import { migrations } from '../migrations/index.js';
import { envSchema } from './env.js';

await migrateAndExit('gateway', envSchema, { migrations });
