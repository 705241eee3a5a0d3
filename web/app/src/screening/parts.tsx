import { Badge, toast, isApiError } from '@vigil/ui';
import { Inbox } from 'lucide-react';
import { useCallback, type ReactNode } from 'react';
import { STATUS_LABEL, STATUS_TONE, type MatchStatus } from './classify.js';
import { useDownloadFileMutation } from './screening.api.js';

export function StatusBadge({ status }: { status: MatchStatus }) {
  return (
    <Badge tone={STATUS_TONE[status]} data-status={status}>
      {STATUS_LABEL[status]}
    </Badge>
  );
}

export function EmptyState({ title, children, icon }: { title: string; children?: ReactNode; icon?: ReactNode }) {
  return (
    <div className="flex flex-col items-center rounded-card border border-dashed border-border bg-surface px-6 py-12 text-center">
      <span className="flex size-11 items-center justify-center rounded-xl bg-muted text-muted-foreground [&_svg]:size-5">
        {icon ?? <Inbox aria-hidden />}
      </span>
      <h2 className="mt-4 text-base font-semibold">{title}</h2>
      {children && <div className="mt-1 max-w-md text-sm text-muted-foreground">{children}</div>}
    </div>
  );
}

/** Saves bytes as a file the browser downloads. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/** Today as the spec's {date} in file names (YYYY-MM-DD). */
export const today = () => new Date().toISOString().slice(0, 10);

/**
 * Downloads a file the server produces, under the server's file name (or the fallback), with
 * the spec's "Download Failed" toast on failure, or the title the spec gives that screen's export.
 */
export function useServerDownload(failureTitle = 'Download Failed') {
  const [download, state] = useDownloadFileMutation();
  const run = useCallback(
    async (url: string, fallbackName: string, params?: Record<string, string>) => {
      try {
        const file = await download({ url, params }).unwrap();
        saveBlob(file.blob, file.fileName ?? fallbackName);
        return true;
      } catch (error) {
        toast({
          title: failureTitle,
          description: isApiError(error) ? error.message : 'The download did not complete.',
          variant: 'destructive',
        });
        return false;
      }
    },
    [download, failureTitle],
  );
  return [run, state.isLoading] as const;
}

export const countFormat = new Intl.NumberFormat('en-GB');
export const dateTimeFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '—' : dateTimeFormat.format(date);
}

export function formatBytes(bytes: number | null): string {
  if (bytes === null) return '—';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
