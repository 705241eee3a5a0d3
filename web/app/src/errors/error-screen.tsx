import { Button } from '@vigil/ui';
import { AlertTriangle, RefreshCw, RotateCcw } from 'lucide-react';
import { isRouteErrorResponse, useLocation, useNavigate, useRouteError } from 'react-router-dom';
import { NAVIGATION_ATTEMPTS, NavigationErrorScreen } from '../shell/navigation-error.js';

/** A page's code failed to download: a navigation problem the reader can retry, not a crash. */
function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(error.message)
  );
}

/** Shown when a route throws while rendering or loading. */
export function ErrorScreen() {
  const error = useRouteError();
  const navigate = useNavigate();
  const location = useLocation();
  if (import.meta.env.DEV) console.error(error);
  // A fresh navigation to the same place clears the router's error and renders the route again, without a reload.
  const retry = () => navigate(`${location.pathname}${location.search}${location.hash}`, { replace: true });

  // Route chunks handle their own failures (shell/lazy-route.tsx); this catches one that escaped, e.g. a
  // chunk's own import failing. The router clears its error on retry, so the count lives in history state.
  if (isChunkLoadError(error)) {
    const attemptsLeft = Number(
      (location.state as { navigationAttempts?: number } | null)?.navigationAttempts ?? NAVIGATION_ATTEMPTS,
    );
    const retryChunk = () =>
      navigate(`${location.pathname}${location.search}${location.hash}`, {
        replace: true,
        state: { navigationAttempts: attemptsLeft - 1 },
      });
    return <NavigationErrorScreen attemptsLeft={attemptsLeft} onRetry={retryChunk} />;
  }

  if (isRouteErrorResponse(error)) {
    return (
      <main className="flex min-h-dvh items-center justify-center bg-background px-6">
        <div role="alert" className="max-w-md text-center">
          <h1 className="text-2xl font-semibold tracking-tight">Unexpected Application Error!</h1>
          <p className="mt-3 text-muted-foreground">
            {error.status} {error.statusText}
          </p>
        </div>
      </main>
    );
  }

  return (
    <main className="flex min-h-dvh items-center justify-center bg-background px-6">
      <div role="alert" className="flex max-w-md flex-col items-center text-center">
        <span className="flex size-14 items-center justify-center rounded-2xl bg-destructive-soft text-destructive">
          <AlertTriangle className="size-7" aria-hidden />
        </span>
        <h1 className="mt-6 text-2xl font-semibold tracking-tight">Something went wrong</h1>
        <p className="mt-3 text-muted-foreground">An unexpected error occurred. Please try refreshing the page.</p>
        <div className="mt-8 flex gap-3">
          <Button onClick={retry}>
            <RotateCcw aria-hidden /> Try Again
          </Button>
          <Button variant="outline" onClick={() => window.location.reload()}>
            <RefreshCw aria-hidden /> Refresh Page
          </Button>
        </div>
      </div>
    </main>
  );
}
