import { QueryView } from '@vigil/ui';
import type { MemberRole, Review, ReviewStatus } from '@vigil/proto';
import { memberRoleAtLeast } from '@vigil/proto';
import {
  Button,
  Kbd,
  ShortcutsHelpDialog,
  Spinner,
  cn,
  toast,
  useKeyboardShortcuts,
  type KeyboardShortcut,
  errorMessage,
} from '@vigil/ui';
import { Keyboard, RefreshCw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useAuth } from '@vigil/ui/session';
import { usePageTitle } from '../shell/page-title.js';
import { percent } from './classify.js';
import { PageHeader } from './dashboard-shell.js';
import { countFormat, EmptyState, formatDateTime } from './parts.js';
import { RememberedDecisions } from './remembered-decisions.js';
import { RaisedBlockedBadge, ReviewCase, ReviewStatusBadge } from './review-case.js';
import { actionLabel, decisionProblems, type DecisionDraft, type DecisionProblems } from './review-reasons.js';
import {
  useConfirmReviewMutation,
  useDecideReviewMutation,
  useGetReviewSettingsQuery,
  useGetReviewsQuery,
  useReturnReviewMutation,
} from './screening.api.js';

type Filter = ReviewStatus | 'all';

/** The queue's filter buttons (spec §2: Pending, Approved, Blocked and All, with counts), proposals apart. */
const FILTERS: readonly [Filter, string][] = [
  ['pending', 'Pending'],
  ['proposed', 'Proposed'],
  ['approved', 'Approved'],
  ['blocked', 'Blocked'],
  ['all', 'All'],
];

const EMPTY_DRAFT: DecisionDraft = { action: null, reasonCode: null, note: '' };

/** The width at which the queue and the case sit side by side (Tailwind's lg). */
const SPLIT_QUERY = '(min-width: 1024px)';

const optionId = (id: string) => `review-option-${id}`;

/**
 * True only when the session names a role below `minimum`. A session without a role (one begun
 * before the plan was bought, say) is left to the server, which checks every call anyway.
 */
function lacksRole(role: MemberRole | null | undefined, minimum: MemberRole): boolean {
  return role !== null && role !== undefined && !memberRoleAtLeast(role, minimum);
}

/**
 * /dashboard/screening/review-queue: the queue on the left, the case on the right (on a phone the
 * case opens as its own view). Worked from the keyboard: J/K move, A/B choose, R the reason,
 * Enter sends; `?` lists them.
 */
export function ReviewQueuePage() {
  usePageTitle('Review Queue');
  const { user } = useAuth();
  const [filter, setFilter] = useState<Filter>('pending');
  const reviews = useGetReviewsQuery(filter === 'all' ? undefined : filter);
  const settings = useGetReviewSettingsQuery();
  const fourEyes = settings.data?.fourEyes ?? false;
  const [decide, decideState] = useDecideReviewMutation();
  const [confirm, confirmState] = useConfirmReviewMutation();
  const [sendBack, returnState] = useReturnReviewMutation();

  const [selectedId, setSelectedId] = useState<string | null>(null);
  const lastIndex = useRef(0);
  const [caseOpen, setCaseOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [draft, setDraft] = useState<DecisionDraft>(EMPTY_DRAFT);
  const [problems, setProblems] = useState<DecisionProblems>({});
  const [focusReasons, setFocusReasons] = useState(0);
  const listRef = useRef<HTMLDivElement>(null);
  const reasonGroupRef = useRef<HTMLDivElement>(null);
  const noteRef = useRef<HTMLTextAreaElement>(null);

  // The current filter's rows only: while another filter loads, the old rows must not be acted on.
  const items = reviews.currentData?.reviews ?? [];
  let index = items.findIndex((r) => r.id === selectedId);
  // The selected review left this filter (decided, or the filter changed): keep the place in the queue.
  if (index < 0 && items.length > 0) index = Math.min(lastIndex.current, items.length - 1);
  const selected: Review | undefined = index >= 0 ? items[index] : undefined;
  const busy = decideState.isLoading || confirmState.isLoading || returnState.isLoading;
  const readOnly = lacksRole(user?.member_role, 'analyst');

  useEffect(() => {
    if (index >= 0) lastIndex.current = index;
  }, [index]);

  useEffect(() => {
    setDraft(EMPTY_DRAFT);
    setProblems({});
  }, [selected?.id]);

  useEffect(() => {
    if (!selected) return;
    document.getElementById(optionId(selected.id))?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  useEffect(() => {
    if (focusReasons === 0) return;
    const group = reasonGroupRef.current;
    const radio =
      group?.querySelector<HTMLInputElement>('input[type="radio"]:checked') ??
      group?.querySelector<HTMLInputElement>('input[type="radio"]');
    radio?.focus();
  }, [focusReasons]);

  const select = (review: Review | undefined) => {
    if (!review) return;
    setSelectedId(review.id);
    listRef.current?.focus({ preventScroll: true });
  };
  const move = (delta: number) => {
    if (items.length === 0) return;
    select(items[Math.max(0, Math.min(items.length - 1, (index < 0 ? -1 : index) + delta))]);
  };
  const changeFilter = (next: Filter) => {
    setFilter(next);
    setSelectedId(null);
    lastIndex.current = 0;
  };

  /** After a decision: the next review still waiting, below the decided one if there is one. */
  const advanceFrom = (decided: Review) => {
    const at = items.findIndex((r) => r.id === decided.id);
    const waiting = (r: Review) => r.id !== decided.id && (r.status === 'pending' || r.status === 'proposed');
    const next = items.slice(at + 1).find(waiting) ?? items.slice(0, Math.max(at, 0)).reverse().find(waiting);
    setSelectedId(next?.id ?? null);
    listRef.current?.focus({ preventScroll: true });
  };

  const chooseAction = (action: 'approve' | 'block') => {
    if (selected?.status !== 'pending' || readOnly) return;
    setDraft((d) => ({ action, reasonCode: d.action === action ? d.reasonCode : null, note: d.note }));
    setProblems({});
    setCaseOpen(true);
    setFocusReasons((n) => n + 1);
  };

  const submit = async () => {
    if (!selected || selected.status !== 'pending' || busy || readOnly) return;
    const found = decisionProblems(draft);
    setProblems(found);
    if (found.reasonCode) setFocusReasons((n) => n + 1);
    if (found.note) noteRef.current?.focus();
    if (!draft.action || !draft.reasonCode || Object.keys(found).length > 0) return;
    try {
      const note = draft.note.trim();
      const result = await decide({
        id: selected.id,
        action: draft.action,
        reasonCode: draft.reasonCode,
        ...(note ? { note } : {}),
      }).unwrap();
      toast(
        result.outcome === 'proposed'
          ? {
              title: 'Decision proposed',
              description: `${actionLabel(draft.action, selected.raised_as)}: ${selected.searched_input}. A supervisor or owner confirms it.`,
            }
          : {
              title: decidedTitle(draft.action, selected.raised_as),
              description: selected.searched_input,
            },
      );
      advanceFrom(selected);
    } catch (error) {
      toast({ title: 'Failed to update review', description: errorMessage(error), variant: 'destructive' });
    }
  };

  const cannotConfirm =
    selected?.status !== 'proposed'
      ? null
      : user !== null && selected.proposed_by_id === user.id
        ? 'You proposed this decision: another supervisor or owner must confirm it.'
        : lacksRole(user?.member_role, 'supervisor')
          ? 'Confirming a proposal needs the supervisor or owner role.'
          : null;

  const confirmProposal = async () => {
    if (selected?.status !== 'proposed' || busy || cannotConfirm) return;
    try {
      await confirm({ id: selected.id }).unwrap();
      toast({ title: 'Decision confirmed', description: selected.searched_input });
      advanceFrom(selected);
    } catch (error) {
      toast({ title: 'Failed to update review', description: errorMessage(error), variant: 'destructive' });
    }
  };

  const returnProposal = async () => {
    if (selected?.status !== 'proposed' || busy) return;
    try {
      await sendBack({ id: selected.id }).unwrap();
      toast({ title: 'Sent back to the queue', description: selected.searched_input });
      advanceFrom(selected);
    } catch (error) {
      toast({ title: 'Failed to update review', description: errorMessage(error), variant: 'destructive' });
    }
  };

  const shortcuts: KeyboardShortcut[] = [
    { keys: ['j'], description: 'Next review', run: () => move(1) },
    { keys: ['k'], description: 'Previous review', run: () => move(-1) },
    { keys: ['a'], description: 'Approve (then pick a reason)', run: () => chooseAction('approve') },
    { keys: ['b'], description: 'Block (then pick a reason)', run: () => chooseAction('block') },
    {
      keys: ['r'],
      description: 'Go to the reasons (↑ ↓ move, Space picks)',
      run: () => {
        if (selected?.status !== 'pending' || readOnly) return;
        if (!draft.action) setProblems({ action: 'Choose Approve or Block.' });
        setCaseOpen(true);
        setFocusReasons((n) => n + 1);
      },
    },
    {
      keys: ['Enter'],
      description: 'Confirm the decision (or the selected proposal)',
      run: () => {
        if (!window.matchMedia(SPLIT_QUERY).matches && !caseOpen) {
          setCaseOpen(true);
          return;
        }
        if (selected?.status === 'proposed') void confirmProposal();
        else void submit();
      },
    },
    { keys: ['Ctrl+Enter'], description: 'Send the decision from the note field' },
    { keys: ['?'], description: 'Show these shortcuts', run: () => setHelpOpen((open) => !open) },
  ];
  useKeyboardShortcuts(shortcuts, !helpOpen);

  const counts = reviews.data?.counts;
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title="Review Queue"
        description="Screenings whose best match fell in the review band, and blocked ones to confirm or overturn. Decide each with a reason; every decision names who made it."
        actions={
          <>
            <Button
              variant="outline"
              className="hidden sm:inline-flex"
              onClick={() => setHelpOpen(true)}
              aria-keyshortcuts="?"
            >
              <Keyboard aria-hidden /> Shortcuts <Kbd aria-hidden>?</Kbd>
            </Button>
            <Button variant="outline" onClick={() => void reviews.refetch()} disabled={reviews.isFetching}>
              <RefreshCw className={reviews.isFetching ? 'animate-spin' : undefined} aria-hidden /> Refresh
            </Button>
          </>
        }
      />
      <div role="group" aria-label="Filter reviews" className="mb-4 flex flex-wrap gap-2">
        {FILTERS.map(([value, label]) => (
          <Button
            key={value}
            size="sm"
            variant={filter === value ? 'primary' : 'outline'}
            aria-pressed={filter === value}
            data-filter={value}
            onClick={() => changeFilter(value)}
          >
            {label} ({counts ? countFormat.format(counts[value]) : '…'})
          </Button>
        ))}
      </div>
      <QueryView query={reviews} errorTitle="Failed to fetch review queue">
        {() =>
          reviews.currentData === undefined ? (
            <Spinner label="Loading..." className="py-12" />
          ) : items.length === 0 ? (
            <EmptyState title="No reviews">
              {filter === 'pending'
                ? 'Nothing waits for a decision. Screenings in the review band, and blocked ones, appear here.'
                : 'No review has this status yet.'}
            </EmptyState>
          ) : (
            <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)] lg:items-start">
              <section aria-label="Queue" className={cn(caseOpen && 'hidden lg:block')}>
                <div
                  ref={listRef}
                  role="listbox"
                  tabIndex={0}
                  aria-label="Reviews"
                  aria-activedescendant={selected ? optionId(selected.id) : undefined}
                  aria-keyshortcuts="J K"
                  data-testid="review-list"
                  className="flex flex-col gap-1.5 rounded-card border border-border bg-surface p-1.5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring lg:max-h-[calc(100dvh-15rem)] lg:overflow-y-auto"
                  onKeyDown={(event) => {
                    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
                      event.preventDefault();
                      move(event.key === 'ArrowDown' ? 1 : -1);
                    } else if (event.key === 'Home' || event.key === 'End') {
                      event.preventDefault();
                      select(event.key === 'Home' ? items[0] : items.at(-1));
                    }
                  }}
                >
                  {items.map((review) => (
                    <QueueRow
                      key={review.id}
                      review={review}
                      selected={review.id === selected?.id}
                      onSelect={() => {
                        select(review);
                        setCaseOpen(true);
                      }}
                    />
                  ))}
                </div>
                <p className="mt-2 hidden text-xs text-muted-foreground lg:block">
                  <Kbd>J</Kbd> <Kbd>K</Kbd> move · <Kbd>A</Kbd> approve · <Kbd>B</Kbd> block · <Kbd>R</Kbd> reason ·{' '}
                  <Kbd>Enter</Kbd> confirm · <Kbd>?</Kbd> help
                </p>
              </section>
              <div className={cn('min-w-0', !caseOpen && 'hidden lg:block')}>
                {selected && (
                  <ReviewCase
                    key={selected.id}
                    review={selected}
                    onBack={() => {
                      setCaseOpen(false);
                      listRef.current?.focus({ preventScroll: true });
                    }}
                    decision={{
                      draft,
                      problems,
                      busy,
                      fourEyes,
                      readOnly,
                      onChange: (next) => {
                        setDraft(next);
                        setProblems({});
                      },
                      onSubmit: () => void submit(),
                      reasonGroupRef,
                      noteRef,
                    }}
                    proposal={{
                      busy,
                      cannotConfirm,
                      onConfirm: () => void confirmProposal(),
                      onReturn: () => void returnProposal(),
                    }}
                  />
                )}
              </div>
            </div>
          )
        }
      </QueryView>
      <RememberedDecisions />
      <ShortcutsHelpDialog
        open={helpOpen}
        onOpenChange={setHelpOpen}
        shortcuts={shortcuts}
        title="Review Queue shortcuts"
        description="Work the queue without the mouse. Shortcuts are off while you type in a field."
      />
    </div>
  );
}

function decidedTitle(action: 'approve' | 'block', raisedAs: Review['raised_as']): string {
  if (raisedAs === 'blocked') return action === 'approve' ? 'Block overturned' : 'Block confirmed';
  return action === 'approve' ? 'Review approved' : 'Review blocked';
}

function QueueRow({ review, selected, onSelect }: { review: Review; selected: boolean; onSelect: () => void }) {
  const decidedBy = review.decided_by_email ?? review.proposed_by_email;
  return (
    <div
      id={optionId(review.id)}
      role="option"
      aria-selected={selected}
      data-testid="review-row"
      data-review-id={review.id}
      onClick={onSelect}
      className={cn(
        'cursor-pointer rounded-lg border-l-4 px-3 py-2.5 text-sm transition-colors',
        selected ? 'border-primary bg-primary-soft' : 'border-transparent hover:bg-muted',
      )}
    >
      <div className="flex items-center gap-2">
        <ReviewStatusBadge status={review.status} />
        {review.raised_as === 'blocked' && <RaisedBlockedBadge />}
        <span className="min-w-0 flex-1 truncate font-medium" title={review.searched_input}>
          {review.searched_input}
        </span>
        <span className="shrink-0 text-xs tabular-nums text-muted-foreground">
          {percent(review.screening_score, 1)}
        </span>
      </div>
      <p className="mt-1 truncate text-xs text-muted-foreground">
        {review.matched_name ? `↔ ${review.matched_name} · ` : ''}
        {review.party_count > 1 ? `${review.party_count} parties · ` : ''}
        {formatDateTime(review.created_at)}
      </p>
      {decidedBy && <p className="mt-0.5 truncate text-xs text-muted-foreground">{decidedBy}</p>}
    </div>
  );
}
