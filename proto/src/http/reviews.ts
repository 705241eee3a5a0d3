import type {
  RememberedResponse,
  ReviewDecisionBody,
  ReviewReturnBody,
  ReviewSettings,
  RevokeRememberedResponse,
} from '../screening/reviews.js';
import type {
  DecideReviewResponse,
  ReviewActionResponse,
  ReviewCaseResponse,
  ReviewStatus,
  ReviewsResponse,
} from '../screening/screening-logs.js';

/**
 * The review queue's HTTP routes (issue #19), all `@Credentials('dashboard')`: the client is the
 * signed-in member's own, and the member is named on every decision. Refusals are
 * problem+json: VALIDATION_FAILED (pointers /reasonCode, /note), NOT_FOUND (another client's id
 * too), CONFLICT (already decided, awaiting confirmation, nothing to confirm), ROLE_FORBIDDEN
 * (viewer decides, analyst confirms or changes settings), FOUR_EYES_SELF_CONFIRM (the proposer
 * confirms its own proposal).
 */
export type ReviewRoutes = {
  /** `GET /api/sanctions/review?status=pending|proposed|approved|blocked&limit&offset` */
  list: { query: { status?: ReviewStatus; limit?: number; offset?: number }; reply: ReviewsResponse };
  /** `GET /api/sanctions/review/{id}`: the case pane. */
  case: { reply: ReviewCaseResponse };
  /** `POST /api/sanctions/review/{id}?action=approve|block`, body `{reasonCode, note}`. */
  decide: { query: { action: 'approve' | 'block' }; body: ReviewDecisionBody; reply: DecideReviewResponse };
  /** `POST /api/sanctions/review/{id}/confirm` (supervisor or owner, not the proposer). */
  confirm: { reply: ReviewActionResponse };
  /** `POST /api/sanctions/review/{id}/return`, body `{note?}`: the proposal goes back to pending. */
  return: { body: ReviewReturnBody; reply: ReviewActionResponse };
  /** `GET /api/sanctions/review-settings`; `PUT` with `{fourEyes}` (supervisor or owner). */
  settings: { body: { fourEyes: boolean }; reply: ReviewSettings };
  /** `GET /api/sanctions/remembered?limit&offset`: active remembered false positives. */
  remembered: { reply: RememberedResponse };
  /** `DELETE /api/sanctions/remembered/{id}`: later screens are flagged again. */
  revokeRemembered: { reply: RevokeRememberedResponse };
};
