import type { ReviewStatus } from '@vigil/proto';
import { Badge, Button } from '@vigil/ui';
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { usePageTitle } from '../shell/page-title.js';
import { percent } from './classify.js';
import { PageHeader } from './dashboard-shell.js';
import { countFormat, EmptyState, formatDateTime, QueryView } from './parts.js';
import { useGetReviewsQuery } from './screening.api.js';

const FILTERS: readonly [ReviewStatus | undefined, string, 'pending' | 'approved' | 'blocked' | 'all'][] = [
  ['pending', 'Pending', 'pending'],
  ['approved', 'Approved', 'approved'],
  ['blocked', 'Blocked', 'blocked'],
  [undefined, 'All', 'all'],
];

// `proposed` (four-eyes) reads as a review still open; the queue-ui work gives it its own filter.
const TONE = { pending: 'warning', proposed: 'brand', approved: 'success', blocked: 'destructive' } as const;

/**
 * /dashboard/screening/review-queue: the screenings in the review band, as the API lists them
 * today. Deciding them (with case notes and assignment) comes with the case-work issue.
 */
export function ReviewQueuePage() {
  usePageTitle('Review Queue');
  const [status, setStatus] = useState<ReviewStatus | undefined>('pending');
  const reviews = useGetReviewsQuery(status);
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title="Review Queue"
        description="Screenings whose best match fell in the review band. Case work (decisions, notes, assignment) arrives with the case-work release; this page lists what the API records today."
        actions={
          <Button variant="outline" onClick={() => void reviews.refetch()} disabled={reviews.isFetching}>
            <RefreshCw className={reviews.isFetching ? 'animate-spin' : undefined} aria-hidden /> Refresh
          </Button>
        }
      />
      <QueryView query={reviews} errorTitle="Failed to fetch review queue">
        {(data) => (
          <div className="flex flex-col gap-4">
            <div role="group" aria-label="Filter reviews" className="flex flex-wrap gap-2">
              {FILTERS.map(([value, label, key]) => (
                <Button
                  key={label}
                  size="sm"
                  variant={status === value ? 'primary' : 'outline'}
                  aria-pressed={status === value}
                  onClick={() => setStatus(value)}
                >
                  {label} ({countFormat.format(data.counts[key])})
                </Button>
              ))}
            </div>
            {data.reviews.length === 0 ? (
              <EmptyState title="No reviews">Screenings in the review band appear here.</EmptyState>
            ) : (
              <ul className="flex flex-col gap-2">
                {data.reviews.map((review) => (
                  <li
                    key={review.id}
                    className="flex flex-wrap items-center gap-3 rounded-card border border-border bg-surface p-4 shadow-card"
                  >
                    <Badge tone={TONE[review.status]} className="capitalize">
                      {review.status}
                    </Badge>
                    <span className="min-w-0 flex-1 font-medium break-words">{review.searched_input}</span>
                    <span className="text-sm text-muted-foreground">
                      {review.confidence} · score {percent(review.screening_score, 1)} ·{' '}
                      {formatDateTime(review.created_at)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </QueryView>
    </div>
  );
}
