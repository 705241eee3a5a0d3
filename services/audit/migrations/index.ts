import { ProcessedMessages1763800000000 } from '@vigil/platform';
import { AuditTrail1764200000000 } from './1764200000000-audit-trail.js';

// Listed explicitly, in order: ESM builds have no reliable glob loading, and an
// explicit list makes a forgotten migration a compile-time diff, not a surprise.
export const migrations = [ProcessedMessages1763800000000, AuditTrail1764200000000];
