import type { MatchStatus, QuotaLeaseRef, ScreeningActor, Tier } from '@vigil/proto';
import type { ReviewCaseFile } from '../reviews/review-memory.key.js';

/** One screened name, as recorded and published for audit. */
export type ScreeningLogEntry = {
  id: string;
  kind: 'single' | 'bulk';
  clientId: string;
  tier: Tier;
  requestId: string | null;
  searchedName: string | null;
  searchedEmail: string | null;
  matchFound: boolean;
  status: MatchStatus;
  score: number;
  confidence: string;
  topEntityId: string | null;
  matchedEntityName: string | null;
  sourceList: string | null;
  /** The top result's explanation, kept with an alert or review. */
  matchReason: string | null;
  feeds: string[];
  listVersions: Array<{ source: string; versionId: number }>;
  createdAt: Date;
  /** The screening request's W3C traceparent, published with its event (null outside a trace). */
  traceparent: string | null;
  /** For a screening that raises a review: what the case pane shows and a memory is keyed on. */
  review: ReviewCaseFile | null;
  /** The gateway's quota lease the screen is counted under; it is logged only before the lease's `answerBy`. */
  quotaLease: QuotaLeaseRef | null;
  /** Who ran it, as the gateway verified it (or monitoring, for its own subject); null when not named. */
  actor: ScreeningActor | null;
};
