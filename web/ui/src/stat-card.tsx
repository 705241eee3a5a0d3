import type { ComponentType, ReactNode } from 'react';
import { cn } from './cn.js';

/** A figure with its label, as the dashboard's and admin console's summary cards show them. */
export function StatCard({
  label,
  value,
  hint,
  icon,
  tone = 'neutral',
  className,
}: {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  icon?: ReactNode;
  tone?: 'neutral' | 'brand' | 'success' | 'warning' | 'destructive';
  className?: string;
}) {
  return (
    <div
      className={cn('flex items-start gap-3 rounded-card border border-border bg-surface p-4 shadow-card', className)}
    >
      {icon && (
        <span
          className={cn(
            'flex size-9 shrink-0 items-center justify-center rounded-lg [&_svg]:size-4',
            tone === 'neutral' && 'bg-muted text-muted-foreground',
            tone === 'brand' && 'bg-primary-soft text-primary',
            tone === 'success' && 'bg-success-soft text-success-foreground',
            tone === 'warning' && 'bg-warning-soft text-warning-foreground',
            tone === 'destructive' && 'bg-destructive-soft text-destructive-foreground',
          )}
        >
          {icon}
        </span>
      )}
      <div className="min-w-0">
        <p className="text-sm text-muted-foreground">{label}</p>
        <p className="mt-0.5 text-2xl font-semibold tracking-tight tabular-nums">{value}</p>
        {hint && <p className="mt-0.5 text-xs text-muted-foreground">{hint}</p>}
      </div>
    </div>
  );
}

export type CountStat = {
  label: string;
  count: number;
  icon: ComponentType<{ 'aria-hidden'?: boolean }>;
  tone: NonNullable<Parameters<typeof StatCard>[0]['tone']>;
};

const countFormat = new Intl.NumberFormat('en-GB');

/** A row of counted summary cards; the grid's columns are the page's (three or four figures, phone to desktop). */
export function StatGrid({ stats, className }: { stats: readonly CountStat[]; className: string }) {
  return (
    <div className={cn('grid gap-3', className)}>
      {stats.map(({ label, count, icon: Icon, tone }) => (
        <StatCard key={label} label={label} value={countFormat.format(count)} icon={<Icon aria-hidden />} tone={tone} />
      ))}
    </div>
  );
}
