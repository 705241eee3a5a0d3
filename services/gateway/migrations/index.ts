import { Gateway1764100000000 } from './1764100000000-gateway.js';
import { QuotaLeases1764300000000 } from './1764300000000-quota-leases.js';
import { QuotaLeaseSettlement1764400000000 } from './1764400000000-quota-lease-settlement.js';
import { IdempotencyClaims1764500000000 } from './1764500000000-idempotency-claims.js';

// Listed explicitly, in order (see services/audit/migrations/index.ts for why).
export const migrations = [
  Gateway1764100000000,
  QuotaLeases1764300000000,
  QuotaLeaseSettlement1764400000000,
  IdempotencyClaims1764500000000,
];
