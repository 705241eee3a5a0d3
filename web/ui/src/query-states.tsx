import { AlertTriangle, RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Alert, AlertDescription, AlertTitle } from './alert.js';
import { errorMessage } from './api-error.js';
import { Button } from './button.js';
import { Spinner } from './spinner.js';

/** The error state of an async view: what failed, the server's words, and a way to try again. */
export function LoadError({ title, error, onRetry }: { title: string; error: unknown; onRetry?: () => void }) {
  return (
    <Alert tone="destructive" className="items-start">
      <AlertTriangle aria-hidden />
      <div className="flex flex-1 flex-col gap-1">
        <AlertTitle>{title}</AlertTitle>
        <AlertDescription>{errorMessage(error)}</AlertDescription>
      </div>
      {onRetry && (
        <Button size="sm" variant="outline" onClick={onRetry} className="shrink-0">
          <RotateCw aria-hidden /> Retry
        </Button>
      )}
    </Alert>
  );
}

export function Loading({ label = 'Loading...' }: { label?: string }) {
  return <Spinner label={label} className="py-12" />;
}

/** What QueryView reads of an RTK Query hook's result (any hook's: the error is shown by errorMessage). */
export type QueryLike<T> = {
  data?: T;
  error?: unknown;
  isLoading: boolean;
  isError: boolean;
  refetch: () => unknown;
};

/** One async view's four states: loading, error (with retry), empty and data. */
export function QueryView<T>({
  query,
  errorTitle,
  isEmpty,
  empty,
  loadingLabel,
  children,
}: {
  query: QueryLike<T>;
  errorTitle: string;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  loadingLabel?: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isLoading) return <Loading label={loadingLabel} />;
  if (query.isError || query.data === undefined) {
    return <LoadError title={errorTitle} error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (isEmpty?.(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}
