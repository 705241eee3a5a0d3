import type { Review, ReviewAction, ReviewStatus } from '@vigil/proto';
import { APPROVE_REASON_CODES, BLOCK_REASON_CODES } from '@vigil/proto';

/** The reason codes an analyst picks from, per action, in the order the picker lists them. */
export const REASONS_FOR: Record<ReviewAction, readonly string[]> = {
  approve: APPROVE_REASON_CODES,
  block: BLOCK_REASON_CODES,
};

/** What each reason code reads as on screen; the code itself is what the API stores. */
export const REASON_LABEL: Record<string, string> = {
  different_person_dob: 'Different person: date of birth differs',
  different_person_country: 'Different person: country differs',
  different_entity_type: 'Different entity type',
  name_only_coincidence: 'Name-only coincidence',
  confirmed_match: 'Confirmed match',
  likely_match_escalated: 'Likely match, escalated',
  other: 'Other (note required)',
};

/** A stored reason code as words, falling back to the code for one this build does not know. */
export function reasonLabel(code: string | null | undefined): string {
  if (!code) return '—';
  if (code === 'other') return 'Other';
  return REASON_LABEL[code] ?? code;
}

export const ACTION_LABEL: Record<ReviewAction, string> = { approve: 'Approve', block: 'Block' };

/** On a case the engine blocked, approving overturns the block (clearing it) and blocking confirms it. */
export const BLOCKED_CASE_ACTION_LABEL: Record<ReviewAction, string> = {
  approve: 'Overturn block',
  block: 'Confirm block',
};

export function actionLabel(action: ReviewAction, raisedAs: Review['raised_as']): string {
  return (raisedAs === 'blocked' ? BLOCKED_CASE_ACTION_LABEL : ACTION_LABEL)[action];
}

export const REVIEW_STATUS_LABEL: Record<ReviewStatus, string> = {
  pending: 'Pending',
  proposed: 'Proposed',
  approved: 'Approved',
  blocked: 'Blocked',
};

export const REVIEW_STATUS_TONE = {
  pending: 'warning',
  proposed: 'brand',
  approved: 'success',
  blocked: 'destructive',
} as const satisfies Record<ReviewStatus, string>;

export type DecisionDraft = { action: ReviewAction | null; reasonCode: string | null; note: string };

export type DecisionProblems = { action?: string; reasonCode?: string; note?: string };

/**
 * What stops a decision from being sent, in the words the form shows: the same rules the API
 * enforces (a reason from the action's list; a note for "other"), checked before anything is sent.
 */
export function decisionProblems(draft: DecisionDraft): DecisionProblems {
  if (!draft.action) return { action: 'Choose Approve or Block.' };
  if (!draft.reasonCode || !REASONS_FOR[draft.action].includes(draft.reasonCode)) {
    return { reasonCode: 'Choose a reason.' };
  }
  if (draft.reasonCode === 'other' && draft.note.trim() === '') {
    return { note: 'A note is required when the reason is Other.' };
  }
  return {};
}
