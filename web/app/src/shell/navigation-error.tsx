import { Button } from '@vigil/ui';
import { Navigation } from 'lucide-react';
import { useNavigate } from 'react-router-dom';

/** Spec "Navigation error screen": a failed navigation can be retried three times before only the dashboard is offered. */
export const NAVIGATION_ATTEMPTS = 3;

/**
 * The counter belongs to the caller: retrying unmounts this screen while the
 * page loads again, and a second failure must show one attempt fewer, not three.
 */
export function NavigationErrorScreen({ attemptsLeft, onRetry }: { attemptsLeft: number; onRetry: () => void }) {
  const navigate = useNavigate();
  return (
    <section role="alert" className="mx-auto flex max-w-md flex-col items-center px-6 pt-40 pb-24 text-center">
      <span className="flex size-14 items-center justify-center rounded-2xl bg-warning-soft text-warning-foreground">
        <Navigation className="size-7" aria-hidden />
      </span>
      <h1 className="mt-6 text-2xl font-semibold tracking-tight">Navigation Error</h1>
      <p className="mt-3 text-muted-foreground">This page could not be loaded. Check your connection and try again.</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {attemptsLeft > 0 && <Button onClick={onRetry}>Try Again ({attemptsLeft} attempts left)</Button>}
        <Button variant="outline" onClick={() => navigate('/dashboard')}>
          Go to Dashboard
        </Button>
      </div>
      <p className="mt-6 text-sm text-muted-foreground">If this problem persists, please contact support.</p>
    </section>
  );
}
