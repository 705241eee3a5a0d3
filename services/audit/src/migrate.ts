import { migrateAndExit } from '@vigil/platform';
import { envSchema } from './env.js';
import { migrations } from '../migrations/index.js';

// No vigil_audit login role (role: null): audit confines itself with its own append-only roles.
await migrateAndExit('audit', envSchema, { migrations, role: null });
