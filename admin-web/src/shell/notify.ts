import { toast, isApiError } from '@vigil/ui';

/** A success toast with the spec's words (§8). */
export function notifySuccess(title: string, description?: string): void {
  toast(description === undefined ? { title } : { title, description });
}

/** A failure toast: the spec's title, and the gateway's own words when it sent any. */
export function notifyFailure(title: string, error?: unknown, fallback?: string): void {
  const description = isApiError(error) ? error.message : fallback;
  toast({ title, ...(description ? { description } : {}), variant: 'destructive' });
}
