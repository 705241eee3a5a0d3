import { Injectable } from '@nestjs/common';
import { DomainError } from '@vigil/platform';
import {
  memberRoleAtLeast,
  MEMORY_REASON_CODES,
  subjects,
  type ConfirmReviewRequest,
  type DecideReviewRequest,
  type DecideReviewResponse,
  type MemberRole,
  type MemoryChangedEvent,
  type ParsedRememberedRequest,
  type RememberedResponse,
  type ReturnReviewRequest,
  type Review,
  type ReviewAction,
  type ReviewActionResponse,
  type ReviewActor,
  type ReviewCaseRequest,
  type ReviewCaseResponse,
  type ReviewDecidedEvent,
  type ReviewSettings,
  type ReviewSettingsChangedEvent,
  type ReviewSettingsRequest,
  type RevokeRememberedRequest,
  type RevokeRememberedResponse,
  type UpdateReviewSettingsRequest,
} from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import { OutboxRepository, type OutboxMessage, type Sql } from '../events/outbox.repository.js';
import { OutboxRelay } from '../events/outbox.relay.js';
import { ReviewMemory } from './review-memory.js';
import { ReviewsRepository, type LockedReview } from './reviews.repository.js';

// A block overturned is not remembered: the memory clears review-band results only, never a block.
const remembers = (review: Review, action: ReviewAction, reasonCode: string) =>
  review.raised_as === 'review' &&
  action === 'approve' &&
  (MEMORY_REASON_CODES as readonly string[]).includes(reasonCode);

/** Refuses a member below `minimum` (viewer < analyst < supervisor < owner). */
function requireRole(actor: ReviewActor, minimum: MemberRole, what: string): void {
  if (!memberRoleAtLeast(actor.memberRole, minimum)) {
    throw new DomainError('ROLE_FORBIDDEN', `Only ${minimum}s and above may ${what}; you are ${actor.memberRole}.`);
  }
}

function notFound(id: string): never {
  throw new DomainError('NOT_FOUND', `No review ${id}.`);
}

/**
 * The analyst's decision on a review, with its reason and its member; under the client's
 * four-eyes setting a proposal that another supervisor or owner confirms; the false-positive
 * memory that an approval for "not this party" creates. Every step is written with its audit
 * event (outbox) in one transaction.
 */
@Injectable()
export class ReviewsService {
  constructor(
    private readonly repository: ReviewsRepository,
    private readonly outbox: OutboxRepository,
    private readonly relay: OutboxRelay,
    private readonly memory: ReviewMemory,
  ) {}

  async decide(request: DecideReviewRequest): Promise<DecideReviewResponse> {
    const { clientId, id, action, reasonCode, actor } = request;
    requireRole(actor, 'analyst', 'decide reviews');
    const note = request.note || null;
    const outcome = await this.repository.transaction(async (tx) => {
      const current = (await this.repository.lockReview(tx, clientId, id)) ?? notFound(id);
      if (current.status === 'proposed') {
        throw new DomainError(
          'CONFLICT',
          `Review ${id} has a proposal (${current.proposed_action}) waiting for confirmation; confirm or return it first.`,
        );
      }
      if (current.status !== 'pending') {
        throw new DomainError(
          'CONFLICT',
          `Review ${id} was already decided (${current.status}); decided reviews take no further action.`,
        );
      }
      const step = { action, reasonCode, note, actor };
      if (await this.repository.fourEyes(tx, clientId)) {
        const review = await this.repository.propose(tx, clientId, id, step);
        await this.outbox.add(tx, [decisionEvent(current, review, 'proposed', step)]);
        return { review, outcome: 'proposed' as const, rememberedId: null };
      }
      const final = await this.finalise(tx, current, step, null);
      return { ...final, outcome: 'decided' as const };
    });
    this.afterCommit(clientId, outcome.rememberedId);
    return outcome;
  }

  async confirm(request: ConfirmReviewRequest): Promise<ReviewActionResponse> {
    const { clientId, id, actor } = request;
    requireRole(actor, 'supervisor', 'confirm a proposal');
    const outcome = await this.repository.transaction(async (tx) => {
      const current = (await this.repository.lockReview(tx, clientId, id)) ?? notFound(id);
      if (current.status !== 'proposed' || !current.proposed_action || !current.reason_code) {
        throw new DomainError('CONFLICT', `Review ${id} has no proposal to confirm (it is ${current.status}).`);
      }
      if (current.proposed_by_id === actor.userId) {
        throw new DomainError(
          'FOUR_EYES_SELF_CONFIRM',
          `You proposed this decision on review ${id}; another supervisor or owner must confirm it.`,
        );
      }
      return this.finalise(
        tx,
        current,
        { action: current.proposed_action, reasonCode: current.reason_code, note: current.note, actor },
        current.proposed_by_id,
      );
    });
    this.afterCommit(clientId, outcome.rememberedId);
    return outcome;
  }

  async returnToQueue(request: ReturnReviewRequest): Promise<ReviewActionResponse> {
    const { clientId, id, actor } = request;
    requireRole(actor, 'analyst', 'return a proposal');
    const review = await this.repository.transaction(async (tx) => {
      const current = (await this.repository.lockReview(tx, clientId, id)) ?? notFound(id);
      if (current.status !== 'proposed' || !current.proposed_action) {
        throw new DomainError('CONFLICT', `Review ${id} has no proposal to return (it is ${current.status}).`);
      }
      // A proposer may withdraw its own proposal; sending back someone else's is a supervisor's call.
      if (current.proposed_by_id !== actor.userId) requireRole(actor, 'supervisor', "return another member's proposal");
      const returned = await this.repository.returnToQueue(tx, clientId, id);
      await this.outbox.add(tx, [
        decisionEvent(current, returned, 'returned', {
          action: current.proposed_action,
          reasonCode: current.reason_code,
          note: request.note || null,
          actor,
        }),
      ]);
      return returned;
    });
    this.relay.nudge();
    return { review, rememberedId: null };
  }

  async caseOf(request: ReviewCaseRequest): Promise<ReviewCaseResponse> {
    const found = (await this.repository.caseOf(request.clientId, request.id)) ?? notFound(request.id);
    const [previousDecisions, remembered] = await Promise.all([
      this.repository.previousDecisions(request.clientId, found.review.matched_entity_id, request.id),
      this.repository.rememberedOfReview(request.clientId, request.id),
    ]);
    const file = found.caseFile;
    return {
      review: found.review,
      searched: file?.searched ?? {
        name: found.searchedInput,
        email: null,
        dateOfBirth: null,
        country: null,
        entityType: null,
        customerReference: null,
      },
      entry: file?.entry ?? null,
      explanation: file?.explanation ?? null,
      parties: file?.parties ?? [],
      previousDecisions,
      remembered,
    };
  }

  settings(request: ReviewSettingsRequest): Promise<ReviewSettings> {
    return this.repository.settings(request.clientId);
  }

  /** Every switch goes to the client's audit chain with its actor, in the transaction that makes it. */
  async updateSettings(request: UpdateReviewSettingsRequest): Promise<ReviewSettings> {
    const { clientId, fourEyes, actor } = request;
    requireRole(actor, 'supervisor', 'change the four-eyes setting');
    await this.repository.transaction(async (tx) => {
      const { previous } = await this.repository.updateSettings(tx, clientId, fourEyes, actor);
      await this.outbox.add(tx, [settingsEvent(clientId, fourEyes, previous, actor)]);
    });
    this.relay.nudge();
    return this.repository.settings(clientId);
  }

  async remembered(request: ParsedRememberedRequest): Promise<RememberedResponse> {
    const { clientId, limit, offset } = request;
    const page = await this.repository.remembered(clientId, { limit, offset });
    return { remembered: page.rows, total: page.total, limit, offset };
  }

  async revoke(request: RevokeRememberedRequest): Promise<RevokeRememberedResponse> {
    const { clientId, id, actor } = request;
    requireRole(actor, 'analyst', 'revoke a remembered decision');
    const revoked = await this.repository.transaction(async (tx) => {
      const outcome = await this.repository.revoke(tx, clientId, id, actor);
      if (!outcome) throw new DomainError('NOT_FOUND', `No remembered decision ${id}.`);
      if (outcome.outcome === 'already') {
        throw new DomainError('CONFLICT', `Remembered decision ${id} was already revoked.`);
      }
      const memory = outcome.memory;
      await this.outbox.add(tx, [memoryEvent(clientId, 'revoked', memory, actor)]);
      const { screening_log_id: _internal, ...shown } = memory;
      return shown;
    });
    // This replica stops suppressing at once; the others on the event.
    this.memory.invalidate(clientId);
    this.relay.nudge();
    return { revoked };
  }

  /** The final decision, the memory an approval for "not this party" creates, and their events. */
  private async finalise(
    tx: Sql,
    current: LockedReview,
    step: { action: ReviewAction; reasonCode: string; note: string | null; actor: ReviewActor },
    proposedById: string | null,
  ): Promise<{ review: Review; rememberedId: string | null }> {
    const review = await this.repository.finalise(tx, current.clientId, current.id, step);
    if (current.raised_as === 'blocked') {
      await this.repository.settleBlock(tx, current.clientId, current.screening_log_id, step);
    }
    const events: OutboxMessage[] = [];
    let rememberedId: string | null = null;
    if (remembers(current, step.action, step.reasonCode) && current.has_case_file) {
      const made = await this.repository.remember(tx, current.clientId, current.id, randomUUID(), step);
      if (made) {
        rememberedId = made.id;
        events.push(
          memoryEvent(
            current.clientId,
            'created',
            {
              id: made.id,
              review_id: current.id,
              screening_log_id: current.screening_log_id,
              entity_id: made.entityId,
              searched_name: made.searchedName,
            },
            step.actor,
          ),
        );
      }
    }
    events.unshift(
      decisionEvent(current, review, proposedById ? 'confirmed' : 'decided', step, { proposedById, rememberedId }),
    );
    await this.outbox.add(tx, events);
    return { review, rememberedId };
  }

  private afterCommit(clientId: string, rememberedId: string | null): void {
    if (rememberedId) this.memory.invalidate(clientId);
    // The decision's audit events are in the outbox: publish them now rather than at the next poll.
    this.relay.nudge();
  }
}

function decisionEvent(
  current: LockedReview,
  after: Review,
  step: ReviewDecidedEvent['step'],
  what: { action: ReviewAction; reasonCode: string | null; note: string | null; actor: ReviewActor },
  extra: { proposedById?: string | null; rememberedId?: string | null } = {},
): OutboxMessage {
  const eventId = randomUUID();
  const payload: ReviewDecidedEvent = {
    eventId,
    reviewId: current.id,
    screeningLogId: current.screening_log_id,
    clientId: current.clientId,
    decision: what.action === 'approve' ? 'approved' : 'blocked',
    step,
    actorId: what.actor.userId,
    actorEmail: what.actor.email,
    reasonCode: what.reasonCode,
    note: what.note,
    proposedById: extra.proposedById ?? null,
    rememberedId: extra.rememberedId ?? null,
    decidedAt: after.decided_at ?? after.proposed_at ?? new Date().toISOString(),
  };
  return { id: eventId, subject: subjects.screening.reviewDecided, payload };
}

function memoryEvent(
  clientId: string,
  change: MemoryChangedEvent['change'],
  memory: { id: string; review_id: string; screening_log_id: string; entity_id: string; searched_name: string },
  actor: ReviewActor,
): OutboxMessage {
  const eventId = randomUUID();
  const payload: MemoryChangedEvent = {
    eventId,
    memoryId: memory.id,
    clientId,
    change,
    reviewId: memory.review_id,
    screeningLogId: memory.screening_log_id,
    entityId: memory.entity_id,
    searchedName: memory.searched_name,
    actorId: actor.userId,
    actorEmail: actor.email,
    occurredAt: new Date().toISOString(),
  };
  return { id: eventId, subject: subjects.screening.memoryChanged, payload };
}

function settingsEvent(clientId: string, fourEyes: boolean, previous: boolean, actor: ReviewActor): OutboxMessage {
  const eventId = randomUUID();
  const payload: ReviewSettingsChangedEvent = {
    eventId,
    clientId,
    fourEyes,
    previousFourEyes: previous,
    actorId: actor.userId,
    actorEmail: actor.email,
    actorRole: actor.memberRole,
    occurredAt: new Date().toISOString(),
  };
  return { id: eventId, subject: subjects.screening.reviewSettingsChanged, payload };
}
