import type { HealthResponse } from '@vigil/proto';
import { RefreshCw } from 'lucide-react';
import { useId } from 'react';
import { Badge } from './badge.js';
import { Button } from './button.js';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from './card.js';
import { cn } from './cn.js';
import { formatLatency, serviceRows, summarizeHealth, type HealthTone } from './health-summary.js';

export type StatusWidgetProps = {
  health: HealthResponse | undefined;
  isLoading: boolean;
  /** A human sentence saying why the gateway could not be asked; takes precedence over stale data. */
  error?: string | undefined;
  /** True while a background refresh is in flight (the current report stays on screen). */
  isRefreshing?: boolean;
  /** When the shown report was received, in epoch milliseconds. */
  checkedAt?: number | undefined;
  onRefresh?: () => void;
  title?: string;
  description?: string;
  className?: string;
};

const toneDot: Record<HealthTone, string> = {
  loading: 'bg-muted-foreground/50 animate-pulse',
  ok: 'bg-success',
  degraded: 'bg-warning',
  unavailable: 'bg-destructive',
};

const tonePanel: Record<HealthTone, string> = {
  loading: 'border-border bg-muted/60',
  ok: 'border-success/25 bg-success-soft',
  degraded: 'border-warning/40 bg-warning-soft',
  unavailable: 'border-destructive/25 bg-destructive-soft',
};

const toneText: Record<HealthTone, string> = {
  loading: 'text-muted-foreground',
  ok: 'text-success-foreground',
  degraded: 'text-warning-foreground',
  unavailable: 'text-destructive-foreground',
};

const SKELETON_ROWS = 6;

/** The gateway's `/health` report: one overall verdict and one row per service. */
export function StatusWidget({
  health,
  isLoading,
  error,
  isRefreshing = false,
  checkedAt,
  onRefresh,
  title = 'System status',
  description = 'Live health of the Vigil platform services.',
  className,
}: StatusWidgetProps) {
  const titleId = useId();
  const summary = summarizeHealth({ health, isLoading, error });
  const rows = error === undefined && health !== undefined ? serviceRows(health) : [];
  const busy = isLoading || isRefreshing;

  return (
    <Card
      role="region"
      aria-labelledby={titleId}
      aria-busy={busy}
      data-state={summary.tone}
      className={cn('overflow-hidden', className)}
    >
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="flex flex-col gap-1">
          <CardTitle id={titleId}>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
        {onRefresh && (
          <Button
            variant="ghost"
            size="icon"
            onClick={onRefresh}
            disabled={busy}
            aria-label="Refresh status"
            className="-mr-2 -mt-1"
          >
            <RefreshCw className={cn(busy && 'animate-spin')} aria-hidden />
          </Button>
        )}
      </CardHeader>

      <CardContent className="flex flex-col gap-4">
        <div
          role="status"
          aria-live="polite"
          className={cn('flex items-start gap-3 rounded-xl border p-3.5', tonePanel[summary.tone])}
        >
          <span className="relative mt-1.5 flex size-2.5 shrink-0">
            {summary.tone === 'ok' && (
              <span className="absolute inline-flex size-full animate-ping rounded-full bg-success opacity-50" />
            )}
            <span className={cn('relative inline-flex size-2.5 rounded-full', toneDot[summary.tone])} />
          </span>
          <div className="min-w-0">
            <p className={cn('font-semibold', toneText[summary.tone])} data-testid="status-headline">
              {summary.headline}
            </p>
            <p className="text-sm text-muted-foreground">{summary.detail}</p>
          </div>
        </div>

        {summary.tone === 'loading' && (
          <ul aria-hidden className="flex flex-col divide-y divide-border">
            {Array.from({ length: SKELETON_ROWS }, (_, index) => (
              <li key={index} className="flex items-center justify-between py-2.5">
                <span className="h-3.5 w-24 animate-pulse rounded bg-muted" />
                <span className="h-5 w-14 animate-pulse rounded-full bg-muted" />
              </li>
            ))}
          </ul>
        )}

        {error !== undefined && onRefresh && (
          <Button variant="outline" size="sm" onClick={onRefresh} disabled={busy} className="self-start">
            <RefreshCw aria-hidden /> Try again
          </Button>
        )}

        {rows.length > 0 && (
          <ul aria-label="Services" className="flex flex-col divide-y divide-border">
            {rows.map((row) => (
              <li
                key={row.name}
                data-service={row.name}
                data-status={row.status}
                className="flex items-center justify-between gap-3 py-2.5 text-sm"
              >
                <span className="flex min-w-0 items-center gap-2.5">
                  <span
                    aria-hidden
                    className={cn(
                      'size-2 shrink-0 rounded-full',
                      row.status === 'up' ? 'bg-success' : 'bg-destructive',
                    )}
                  />
                  <span className="font-medium capitalize">{row.name}</span>
                  {row.status !== 'up' && row.detail && (
                    <span className="truncate text-xs text-muted-foreground" title={row.detail}>
                      {row.detail}
                    </span>
                  )}
                </span>
                <span className="flex shrink-0 items-center gap-3">
                  <span className="w-14 text-right font-mono text-xs tabular-nums text-muted-foreground">
                    {row.status === 'up' ? formatLatency(row.latencyMs) : '—'}
                  </span>
                  <Badge tone={row.status === 'up' ? 'success' : 'destructive'} className="w-14 justify-center">
                    {row.status === 'up' ? 'Up' : 'Down'}
                  </Badge>
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>

      {(health !== undefined || checkedAt !== undefined) && error === undefined && (
        <CardFooter className="justify-between text-xs text-muted-foreground">
          <span>{health ? `Version ${health.version}` : ''}</span>
          {checkedAt !== undefined && <span>Checked at {new Date(checkedAt).toLocaleTimeString()}</span>}
        </CardFooter>
      )}
    </Card>
  );
}
