import { Alert, AlertDescription, AlertTitle, Button, Spinner, errorMessage } from '@vigil/ui';
import { AlertTriangle, RotateCw } from 'lucide-react';

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
