import { Gateway1764100000000 } from './1764100000000-gateway.js';

// Listed explicitly, in order (see services/audit/migrations/index.ts for why).
export const migrations = [Gateway1764100000000];
