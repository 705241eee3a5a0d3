import type {
  PreviousDecision,
  Review,
  ReviewCaseResponse,
  ReviewListEntry,
  ReviewParty,
  SearchedInput,
} from '@vigil/proto';
import {
  Alert,
  AlertDescription,
  AlertTitle,
  Badge,
  Button,
  HighlightedText,
  Kbd,
  Spinner,
  cn,
  errorMessage,
} from '@vigil/ui';
import { ArrowLeft, Check, History, ShieldCheck, ShieldX, Undo2 } from 'lucide-react';
import type { ReactNode, RefObject } from 'react';
import { feedLabel } from '../public/feed-labels.js';
import { percent } from './classify.js';
import { formatDateTime } from './parts.js';
import {
  actionLabel,
  REASON_LABEL,
  REASONS_FOR,
  reasonLabel,
  REVIEW_STATUS_LABEL,
  REVIEW_STATUS_TONE,
  type DecisionDraft,
  type DecisionProblems,
} from './review-reasons.js';
import { useGetReviewCaseQuery } from './screening.api.js';

export function ReviewStatusBadge({ status }: { status: Review['status'] }) {
  return (
    <Badge tone={REVIEW_STATUS_TONE[status]} data-review-status={status}>
      {REVIEW_STATUS_LABEL[status]}
    </Badge>
  );
}

export type DecisionControls = {
  draft: DecisionDraft;
  problems: DecisionProblems;
  busy: boolean;
  fourEyes: boolean;
  /** The member's role reads reviews but does not decide them (viewer). */
  readOnly: boolean;
  onChange: (draft: DecisionDraft) => void;
  onSubmit: () => void;
  reasonGroupRef: RefObject<HTMLDivElement | null>;
  noteRef: RefObject<HTMLTextAreaElement | null>;
};

export type ProposalControls = {
  busy: boolean;
  /** Why the signed-in member may not confirm this proposal, when they may not. */
  cannotConfirm: string | null;
  onConfirm: () => void;
  onReturn: () => void;
};

/**
 * The right-hand pane: the searched input beside the list entry it hit, with the paired words
 * marked, the qualifiers that moved the score, this client's earlier decisions on the same entry,
 * and the decision (a form while pending, the proposal under four-eyes, the record once decided).
 */
export function ReviewCase({
  review,
  decision,
  proposal,
  onBack,
}: {
  review: Review;
  decision: DecisionControls;
  proposal: ProposalControls;
  onBack: () => void;
}) {
  const details = useGetReviewCaseQuery(review.id);
  return (
    <article aria-labelledby="case-heading" className="flex flex-col gap-5" data-testid="review-case">
      <div className="flex flex-col gap-2">
        <Button variant="ghost" size="sm" className="self-start lg:hidden" onClick={onBack}>
          <ArrowLeft aria-hidden /> Back to queue
        </Button>
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="case-heading" className="min-w-0 text-lg font-semibold break-words">
            {review.searched_input}
          </h2>
          <ReviewStatusBadge status={review.status} />
          {review.raised_as === 'blocked' && <RaisedBlockedBadge />}
        </div>
        <p className="text-sm text-muted-foreground">
          {review.confidence} · score {percent(review.screening_score, 1)} · raised {formatDateTime(review.created_at)}
        </p>
      </div>

      {review.raised_as === 'blocked' && review.status === 'pending' && (
        <Alert tone="destructive">
          <div>
            <AlertTitle>Blocked automatically</AlertTitle>
            <AlertDescription>
              The screening scored in the block band. Confirm the block, or overturn it with a reason: overturning
              clears the screening, and its log and alert say who cleared it and why.
            </AlertDescription>
          </div>
        </Alert>
      )}

      {review.memory_note && (
        <Alert tone="warning">
          <div>
            <AlertTitle>Raised again</AlertTitle>
            <AlertDescription>{review.memory_note}</AlertDescription>
          </div>
        </Alert>
      )}

      {details.isLoading ? (
        <Spinner label="Loading details..." className="py-8" />
      ) : details.isError || !details.data ? (
        <p role="alert" className="text-sm text-destructive-foreground">
          Failed to load details: {errorMessage(details.error, 'Failed to load entity details')}
        </p>
      ) : (
        <CaseBody data={details.data} />
      )}

      {review.status === 'pending' &&
        (decision.readOnly ? (
          <p className="rounded-card border border-border bg-surface p-4 text-sm text-muted-foreground">
            Your role reads the queue; an analyst, supervisor or owner decides.
          </p>
        ) : (
          <DecisionForm {...decision} raisedAs={review.raised_as} />
        ))}
      {review.status === 'proposed' && <ProposalPanel review={review} {...proposal} />}
      {(review.status === 'approved' || review.status === 'blocked') && <DecisionRecord review={review} />}
    </article>
  );
}

/** The queue row's and the case's mark for a case the engine's block raised. */
export function RaisedBlockedBadge() {
  return (
    <Badge tone="destructive" data-testid="raised-blocked">
      Auto-blocked
    </Badge>
  );
}

function tokenSets(data: ReviewCaseResponse): { query: string[]; list: string[] } {
  const tokens = data.explanation?.tokens ?? [];
  return { query: tokens.flatMap((t) => t.query), list: tokens.flatMap((t) => t.list) };
}

function CaseBody({ data }: { data: ReviewCaseResponse }) {
  const tokens = tokenSets(data);
  const previous = data.previousDecisions.filter((p) => p.review_id !== data.review.id);
  return (
    <>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <SearchedPanel searched={data.searched} fallbackName={data.review.searched_input} tokens={tokens.query} />
        <EntryPanel entry={data.entry} matchedName={data.review.matched_name} tokens={tokens.list} />
      </div>
      {data.parties.length > 0 && <PartiesSection parties={data.parties} />}
      {data.explanation && data.explanation.qualifiers.length > 0 && (
        <section aria-labelledby="qualifiers-heading">
          <h3 id="qualifiers-heading" className="text-sm font-semibold">
            Qualifiers
          </h3>
          <ul className="mt-2 flex flex-col gap-1.5 text-sm">
            {data.explanation.qualifiers.map((q, i) => (
              <li key={i} className="flex flex-wrap items-center gap-2">
                <Badge tone={q.effect > 0 ? 'success' : q.effect < 0 ? 'destructive' : 'neutral'}>
                  {q.qualifier} {q.effect > 0 ? '+' : ''}
                  {q.effect.toFixed(2)}
                </Badge>
                <span className="min-w-0 break-words">{q.detail}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="previous-heading">
        <h3 id="previous-heading" className="flex items-center gap-2 text-sm font-semibold">
          <History className="size-4" aria-hidden /> Previous decisions on this entity
        </h3>
        {previous.length === 0 ? (
          <p className="mt-1 text-sm text-muted-foreground">None: this is the first review of this list entry.</p>
        ) : (
          <ul className="mt-2 flex flex-col gap-2" data-testid="previous-decisions">
            {previous.map((p) => (
              <PreviousDecisionItem key={p.review_id} decision={p} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

/**
 * Every party the screen flagged, not only the one the case was raised on: the same party on
 * several lists is one item with its list entries.
 */
function PartiesSection({ parties }: { parties: ReviewParty[] }) {
  return (
    <section aria-labelledby="parties-heading">
      <h3 id="parties-heading" className="text-sm font-semibold">
        Parties this screen flagged ({parties.length})
      </h3>
      <ul className="mt-2 flex flex-col gap-2">
        {parties.map((party) => (
          <li
            key={party.entries[0]!.entityId}
            className="rounded-lg border border-border p-3 text-sm"
            data-testid="case-party"
          >
            <div className="flex flex-wrap items-center gap-2">
              <Badge
                tone={party.status === 'blocked' ? 'destructive' : party.status === 'review' ? 'warning' : 'neutral'}
              >
                {party.status === 'blocked' ? 'Block' : party.status === 'review' ? 'Review' : 'Cleared'}
              </Badge>
              <span className="min-w-0 font-medium break-words" data-testid="party-name">
                {party.name}
              </span>
              <span className="text-muted-foreground">
                {party.entityType} · {party.entries.length} list {party.entries.length === 1 ? 'entry' : 'entries'}
              </span>
            </div>
            <ul className="mt-1 flex flex-col gap-0.5 text-muted-foreground">
              {party.entries.map((entry) => (
                <li key={entry.entityId} data-testid="party-entry">
                  {feedLabel(entry.sourceDataset)} ({entry.source}): {entry.name} · {percent(entry.score, 1)}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}

function PreviousDecisionItem({ decision }: { decision: PreviousDecision }) {
  return (
    <li className="rounded-lg border border-border p-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <ReviewStatusBadge status={decision.status} />
        <span className="min-w-0 font-medium break-words">{decision.searched_input}</span>
      </div>
      <p className="mt-1 text-muted-foreground">
        {reasonLabel(decision.reason_code)} · {decision.decided_by_email ?? decision.proposed_by_email ?? '—'} ·{' '}
        {formatDateTime(decision.decided_at ?? decision.created_at)}
      </p>
      {decision.note && <p className="mt-1 break-words whitespace-pre-wrap">{decision.note}</p>}
    </li>
  );
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="rounded-card border border-border bg-muted/40 p-4" aria-label={title}>
      <h3 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{title}</h3>
      <dl className="mt-3 flex flex-col gap-2.5 text-sm">{children}</dl>
    </section>
  );
}

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="font-medium break-words" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

const dash = (value: string | null | undefined) => (value && value.trim() !== '' ? value : '—');
const list = (values: readonly string[]) => (values.length > 0 ? values.join(', ') : '—');

function SearchedPanel({
  searched,
  fallbackName,
  tokens,
}: {
  searched: SearchedInput;
  fallbackName: string;
  tokens: string[];
}) {
  return (
    <Panel title="Searched input">
      <Row label="Name" testId="searched-name">
        <HighlightedText text={searched.name ?? fallbackName} tokens={tokens} />
      </Row>
      {searched.email && <Row label="Email">{searched.email}</Row>}
      <Row label="Date of birth">{dash(searched.dateOfBirth)}</Row>
      <Row label="Country">{dash(searched.country)}</Row>
      <Row label="Type">{dash(searched.entityType)}</Row>
      <Row label="Customer reference">{dash(searched.customerReference)}</Row>
    </Panel>
  );
}

function EntryPanel({
  entry,
  matchedName,
  tokens,
}: {
  entry: ReviewListEntry | null;
  matchedName: string | null;
  tokens: string[];
}) {
  if (!entry) {
    return (
      <Panel title="List entry">
        <Row label="Name">{matchedName ? <HighlightedText text={matchedName} tokens={tokens} /> : '—'}</Row>
        <p className="text-xs text-muted-foreground">
          This review was raised before list entries were kept with reviews.
        </p>
      </Panel>
    );
  }
  const otherNames = entry.names.filter((name, i, all) => name !== entry.name && all.indexOf(name) === i);
  return (
    <Panel title="List entry">
      <Row label="Name" testId="entry-name">
        <HighlightedText text={entry.name} tokens={tokens} />
      </Row>
      {otherNames.length > 0 && (
        <Row label="Other names">
          <ul className="flex flex-col gap-0.5 font-normal">
            {otherNames.map((name) => (
              <li key={name}>
                <HighlightedText text={name} tokens={tokens} />
              </li>
            ))}
          </ul>
        </Row>
      )}
      <Row label="Dates of birth">{list(entry.datesOfBirth)}</Row>
      <Row label="Country">{list(entry.nationalities)}</Row>
      <Row label="Type">{entry.entityType}</Row>
      <Row label="Identifiers">
        {entry.identifiers.length === 0 ? (
          '—'
        ) : (
          <ul className="flex flex-col gap-0.5 font-normal">
            {entry.identifiers.map((id, i) => (
              <li key={i}>
                {id.type}: <span className="font-mono">{id.value}</span>
                {id.country && ` (${id.country})`}
              </li>
            ))}
          </ul>
        )}
      </Row>
      <Row label="Programmes">{list(entry.programs)}</Row>
      <Row label="Source">
        {feedLabel(entry.sourceDataset)} ({entry.source})
      </Row>
      <Row label="List version" testId="case-list-version">
        {entry.listVersion ? `v${entry.listVersion.versionId}` : '—'}
      </Row>
    </Panel>
  );
}

function DecisionForm({
  draft,
  problems,
  busy,
  fourEyes,
  onChange,
  onSubmit,
  reasonGroupRef,
  noteRef,
  raisedAs,
}: DecisionControls & { raisedAs: Review['raised_as'] }) {
  const reasons = draft.action ? REASONS_FOR[draft.action] : [];
  const submitLabel = !draft.action
    ? 'Confirm decision'
    : fourEyes
      ? `Propose: ${actionLabel(draft.action, raisedAs)}`
      : actionLabel(draft.action, raisedAs);
  return (
    <form
      aria-labelledby="decision-heading"
      className="flex flex-col gap-4 rounded-card border border-border bg-surface p-4 shadow-card"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
      noValidate
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="decision-heading" className="font-semibold">
          Decision
        </h3>
        {fourEyes && <Badge tone="brand">Four-eyes: a supervisor confirms</Badge>}
      </div>
      <div role="group" aria-label="Action" className="flex flex-wrap gap-2">
        <Button
          variant={draft.action === 'approve' ? 'primary' : 'outline'}
          aria-pressed={draft.action === 'approve'}
          onClick={() => onChange({ action: 'approve', reasonCode: null, note: draft.note })}
        >
          <ShieldCheck aria-hidden /> {actionLabel('approve', raisedAs)} <Kbd aria-hidden>A</Kbd>
        </Button>
        <Button
          variant={draft.action === 'block' ? 'destructive' : 'outline'}
          aria-pressed={draft.action === 'block'}
          onClick={() => onChange({ action: 'block', reasonCode: null, note: draft.note })}
        >
          <ShieldX aria-hidden /> {actionLabel('block', raisedAs)} <Kbd aria-hidden>B</Kbd>
        </Button>
      </div>
      {problems.action && (
        <p className="text-sm text-destructive-foreground" role="alert">
          {problems.action}
        </p>
      )}
      <div
        ref={reasonGroupRef}
        role="radiogroup"
        aria-labelledby="reason-label"
        aria-describedby={problems.reasonCode ? 'reason-problem' : undefined}
        aria-invalid={problems.reasonCode ? true : undefined}
        className="flex flex-col gap-1.5"
        onKeyDown={(event) => {
          // Enter on a reason sends the decision, as on the queue (a radio has no Enter of its own).
          if (event.key === 'Enter') {
            event.preventDefault();
            onSubmit();
          }
        }}
      >
        <span id="reason-label" className="text-sm font-medium">
          Reason <Kbd aria-hidden>R</Kbd>
        </span>
        {reasons.length === 0 ? (
          <p className="text-sm text-muted-foreground">Choose Approve or Block first.</p>
        ) : (
          reasons.map((code) => (
            <label
              key={code}
              className={cn(
                'flex cursor-pointer items-center gap-2.5 rounded-lg border border-border px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary-soft has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring',
              )}
            >
              <input
                type="radio"
                name="reason"
                value={code}
                checked={draft.reasonCode === code}
                onChange={() => onChange({ ...draft, reasonCode: code })}
                className="size-4 accent-primary"
              />
              {REASON_LABEL[code]}
            </label>
          ))
        )}
        {problems.reasonCode && (
          <p id="reason-problem" className="text-sm text-destructive-foreground" role="alert">
            {problems.reasonCode}
          </p>
        )}
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor="decision-note" className="text-sm font-medium">
          Note {draft.reasonCode === 'other' ? '(required)' : '(optional)'}
        </label>
        <textarea
          id="decision-note"
          ref={noteRef}
          value={draft.note}
          maxLength={2000}
          rows={3}
          aria-invalid={problems.note ? true : undefined}
          aria-describedby={problems.note ? 'note-problem' : 'note-hint'}
          onChange={(event) => onChange({ ...draft, note: event.target.value })}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              onSubmit();
            }
          }}
          className="w-full rounded-lg border border-input bg-surface px-3 py-2 text-sm shadow-xs focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/30 aria-invalid:border-destructive"
        />
        {problems.note ? (
          <p id="note-problem" className="text-sm text-destructive-foreground" role="alert">
            {problems.note}
          </p>
        ) : (
          <p id="note-hint" className="text-xs text-muted-foreground">
            Ctrl+Enter sends from here.
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={busy} variant={draft.action === 'block' ? 'destructive' : 'primary'}>
          <Check aria-hidden /> {submitLabel}
        </Button>
        <span className="text-xs text-muted-foreground">
          or press <Kbd>Enter</Kbd>
        </span>
      </div>
    </form>
  );
}

function ProposalPanel({ review, busy, cannotConfirm, onConfirm, onReturn }: { review: Review } & ProposalControls) {
  const action = review.proposed_action ? actionLabel(review.proposed_action, review.raised_as) : '—';
  return (
    <section
      aria-labelledby="proposal-heading"
      className="flex flex-col gap-3 rounded-card border border-border bg-surface p-4 shadow-card"
      data-testid="review-proposal"
    >
      <h3 id="proposal-heading" className="font-semibold">
        Proposed: {action}
      </h3>
      <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
        <Row label="Proposed by">{dash(review.proposed_by_email)}</Row>
        <Row label="Proposed">{formatDateTime(review.proposed_at)}</Row>
        <Row label="Reason">{reasonLabel(review.reason_code)}</Row>
        <Row label="Note">{dash(review.note)}</Row>
      </dl>
      {cannotConfirm && <p className="text-sm text-muted-foreground">{cannotConfirm}</p>}
      <div className="flex flex-wrap gap-2">
        <Button onClick={onConfirm} disabled={busy || cannotConfirm !== null}>
          <Check aria-hidden /> Confirm {action.toLowerCase()}
        </Button>
        <Button variant="outline" onClick={onReturn} disabled={busy}>
          <Undo2 aria-hidden /> Send back
        </Button>
      </div>
    </section>
  );
}

function recordHeading(review: Review): string {
  if (review.raised_as === 'blocked') {
    return review.status === 'approved' ? 'Block overturned: the screening is cleared' : 'Block confirmed';
  }
  return `${review.status === 'approved' ? 'Approved' : 'Blocked'}: no further action`;
}

function DecisionRecord({ review }: { review: Review }) {
  const confirmed = review.proposed_by_email !== null && review.proposed_by_email !== review.decided_by_email;
  return (
    <section
      aria-labelledby="record-heading"
      className="flex flex-col gap-3 rounded-card border border-border bg-surface p-4 shadow-card"
      data-testid="review-decision"
    >
      <h3 id="record-heading" className="font-semibold">
        {recordHeading(review)}
      </h3>
      <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
        <Row label={confirmed ? 'Confirmed by' : 'Decided by'} testId="decided-by">
          {dash(review.decided_by_email)}
        </Row>
        <Row label="Decided">{formatDateTime(review.decided_at)}</Row>
        {confirmed && <Row label="Proposed by">{dash(review.proposed_by_email)}</Row>}
        <Row label="Reason" testId="decision-reason">
          {reasonLabel(review.reason_code)}
        </Row>
        <Row label="Note">
          <span className="whitespace-pre-wrap">{dash(review.note)}</span>
        </Row>
      </dl>
    </section>
  );
}
