import { migrateAndExit } from '@vigil/platform';
import { envSchema } from './env.js';
import { migrations } from '../migrations/index.js';
import { APPEND_ROLE, RETENTION_ROLE } from '../migrations/1764200000000-audit-trail.js';

// audit's login role (vigil_audit) holds no rows of its own: it is a member of the append-only and
// retention roles, and every connection takes the first at connect (auditDatabaseOptions).
await migrateAndExit('audit', envSchema, { migrations, memberOf: [APPEND_ROLE, RETENTION_ROLE] });
