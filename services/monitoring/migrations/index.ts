import { ProcessedMessages1763800000000 } from '@vigil/platform';
import { ClientLists1764000300000 } from './1764000300000-client-lists.js';
import { Monitoring1764100000000 } from './1764100000000-monitoring.js';
import { SealWebhookSecrets1764200000000 } from './1764200000000-seal-webhook-secrets.js';

// Listed explicitly, in order: ESM builds have no reliable glob loading, and an
// explicit list makes a forgotten migration a compile-time diff, not a surprise.
export const migrations = [
  ProcessedMessages1763800000000,
  ClientLists1764000300000,
  Monitoring1764100000000,
  SealWebhookSecrets1764200000000,
];
