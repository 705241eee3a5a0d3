import { cn } from '@vigil/ui';
import { formatCount } from '../billing/pricing.js';
import { usageView } from './usage.js';

const BAR = { success: 'bg-success', warning: 'bg-warning', destructive: 'bg-destructive' } as const;
const TEXT = { success: 'text-success-foreground', warning: 'text-warning-foreground', destructive: 'text-destructive-foreground' } as const;

/** Used / quota with a bar; the words say the state too, so colour is never the only signal. */
export function UsageMeter({ usage, quota }: { usage: number; quota: number }) {
  const view = usageView(usage, quota);
  return (
    <div>
      <div className="flex items-baseline justify-between text-sm">
        <span>
          <span className="font-semibold">{formatCount(usage)}</span> of {formatCount(quota)} calls
        </span>
        <span className={cn('font-semibold', TEXT[view.tone])} data-testid="usage-percent">
          {view.percent}%
        </span>
      </div>
      <div
        className="mt-2 h-2.5 overflow-hidden rounded-full bg-muted"
        role="progressbar"
        aria-label="Monthly quota used"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.min(view.percent, 100)}
      >
        <div className={cn('h-full rounded-full transition-all', BAR[view.tone])} style={{ width: `${Math.min(view.percent, 100)}%` }} />
      </div>
      {view.message && <p className={cn('mt-2 text-sm font-medium', TEXT[view.tone])}>{view.message}</p>}
    </div>
  );
}
