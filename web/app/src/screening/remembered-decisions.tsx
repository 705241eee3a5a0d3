import type { RememberedDecision } from '@vigil/proto';
import {
  Button,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
  Spinner,
  toast,
  errorMessage,
  LoadError,
} from '@vigil/ui';
import { BrainCircuit, Undo2 } from 'lucide-react';
import { useState } from 'react';
import { countFormat, formatDateTime } from './parts.js';
import { reasonLabel } from './review-reasons.js';
import { useGetRememberedQuery, useRevokeRememberedMutation } from './screening.api.js';

/**
 * The false positives this client has approved with a "not this party" reason: later screens of
 * the same customer against the same, unchanged list entry come back clear. Revoking one makes
 * those screens raise a review again.
 */
export function RememberedDecisions() {
  const remembered = useGetRememberedQuery();
  const [revoke, revoking] = useRevokeRememberedMutation();
  const [asked, setAsked] = useState<RememberedDecision | null>(null);

  const confirmRevoke = async () => {
    if (!asked) return;
    try {
      await revoke(asked.id).unwrap();
      toast({ title: 'Remembered decision revoked', description: `${asked.searched_name} will be flagged again.` });
      setAsked(null);
    } catch (error) {
      toast({
        title: 'Failed to revoke remembered decision',
        description: errorMessage(error),
        variant: 'destructive',
      });
    }
  };

  return (
    <section aria-labelledby="remembered-heading" className="mt-10" data-testid="remembered-decisions">
      <div className="mb-3 flex items-center gap-2">
        <BrainCircuit className="size-5 text-muted-foreground" aria-hidden />
        <h2 id="remembered-heading" className="text-lg font-semibold">
          Remembered decisions
        </h2>
        {remembered.data && (
          <span className="text-sm text-muted-foreground">({countFormat.format(remembered.data.total)})</span>
        )}
      </div>
      <p className="mb-4 max-w-3xl text-sm text-muted-foreground">
        Approving a hit as a different person, a different entity type or a name-only coincidence remembers it: the same
        customer (name, date of birth, country and type as sent) screened against the same, unchanged list entry comes
        back clear. A changed list entry raises it again.
      </p>
      {remembered.isLoading ? (
        <Spinner label="Loading..." className="py-6" />
      ) : remembered.isError || !remembered.data ? (
        <LoadError
          title="Failed to load remembered decisions"
          error={remembered.error}
          onRetry={() => void remembered.refetch()}
        />
      ) : remembered.data.remembered.length === 0 ? (
        <p className="rounded-card border border-dashed border-border bg-surface px-4 py-6 text-center text-sm text-muted-foreground">
          No remembered decisions yet.
        </p>
      ) : (
        <ul className="flex flex-col gap-2">
          {remembered.data.remembered.map((item) => (
            <li
              key={item.id}
              data-testid="remembered-row"
              className="flex flex-col gap-2 rounded-card border border-border bg-surface p-4 text-sm shadow-card sm:flex-row sm:items-center"
            >
              <div className="min-w-0 flex-1">
                <p className="font-medium break-words">
                  {item.searched_name} <span className="text-muted-foreground">↔</span> {item.entity_name}
                </p>
                <p className="mt-0.5 text-muted-foreground">
                  {[
                    item.date_of_birth && `born ${item.date_of_birth}`,
                    item.country,
                    item.entity_type,
                    item.customer_reference && `ref ${item.customer_reference}`,
                  ]
                    .filter(Boolean)
                    .join(' · ') || 'name only'}
                </p>
                <p className="mt-0.5 text-muted-foreground">
                  {reasonLabel(item.reason_code)} · {item.created_by_email ?? '—'} · {formatDateTime(item.created_at)}
                </p>
              </div>
              <Button
                variant="outline"
                size="sm"
                onClick={() => setAsked(item)}
                aria-label={`Revoke the remembered decision for ${item.searched_name}`}
              >
                <Undo2 aria-hidden /> Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Dialog open={asked !== null} onOpenChange={(open) => !open && setAsked(null)}>
        <DialogContent>
          <DialogTitle>Revoke remembered decision?</DialogTitle>
          <DialogDescription>
            {asked ? `Screens of ${asked.searched_name} that hit ${asked.entity_name} will raise a review again.` : ''}
          </DialogDescription>
          <div className="mt-5 flex justify-end gap-2">
            <Button variant="outline" onClick={() => setAsked(null)}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={() => void confirmRevoke()} disabled={revoking.isLoading}>
              Revoke
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </section>
  );
}
