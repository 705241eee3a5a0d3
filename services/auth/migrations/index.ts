import { ProcessedMessages1763800000000 } from '@vigil/platform';
import { AuthSchema1764100000000 } from './1764100000000-auth-schema.js';
import { OidcLink1764100000001 } from './1764100000001-oidc-link.js';
import { UsagePeriod1764100000002 } from './1764100000002-usage-period.js';
import { SignInLimits1764100000003 } from './1764100000003-sign-in-limits.js';
import { SealSecrets1764100000004 } from './1764100000004-seal-secrets.js';
import { TeamMembers1764100000005 } from './1764100000005-team-members.js';
import { TeamInvitations1764100000006 } from './1764100000006-team-invitations.js';
import { UnlockLinks1764300000000 } from './1764300000000-unlock-links.js';

// Listed explicitly, in order: ESM builds have no reliable glob loading, and an
// explicit list makes a forgotten migration a compile-time diff, not a surprise.
export const migrations = [
  ProcessedMessages1763800000000,
  AuthSchema1764100000000,
  OidcLink1764100000001,
  UsagePeriod1764100000002,
  SignInLimits1764100000003,
  SealSecrets1764100000004,
  TeamMembers1764100000005,
  TeamInvitations1764100000006,
  UnlockLinks1764300000000,
];
