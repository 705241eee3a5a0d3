import { ProcessedMessages1763800000000 } from '@vigil/platform';
import { Lists1764000000000 } from './1764000000000-lists.js';
import { ScreeningLogs1764000100000 } from './1764000100000-screening-logs.js';
import { ScreeningLogsFilters1764000200000 } from './1764000200000-screening-logs-filters.js';
import { ReviewCaseWork1764000300000 } from './1764000300000-review-case-work.js';
import { OutboxTraceparent1764200000000 } from './1764200000000-outbox-traceparent.js';
import { ScreeningLogsQuotaLease1764400000000 } from './1764400000000-screening-logs-quota-lease.js';
import { OutboxBatches1764500000000 } from './1764500000000-outbox-batches.js';
import { ScreeningLogsMatchesIndex1764500100000 } from './1764500100000-screening-logs-matches-index.js';
import { ScreeningLogsActor1764600000000 } from './1764600000000-screening-logs-actor.js';
import { BlockedCases1764600000001 } from './1764600000001-blocked-cases.js';

// Listed explicitly, in order: ESM builds have no reliable glob loading, and an
// explicit list makes a forgotten migration a compile-time diff, not a surprise.
export const migrations = [
  ProcessedMessages1763800000000,
  Lists1764000000000,
  ScreeningLogs1764000100000,
  ScreeningLogsFilters1764000200000,
  ReviewCaseWork1764000300000,
  OutboxTraceparent1764200000000,
  ScreeningLogsQuotaLease1764400000000,
  OutboxBatches1764500000000,
  ScreeningLogsMatchesIndex1764500100000,
  ScreeningLogsActor1764600000000,
  BlockedCases1764600000001,
];
