import { cn } from '@vigil/ui';
import { Check } from 'lucide-react';

export function StepIndicator({ steps, current }: { steps: readonly string[]; current: number }) {
  return (
    <ol className="flex flex-wrap items-center gap-2 sm:gap-4" aria-label="Progress">
      {steps.map((label, index) => {
        const done = index < current;
        const active = index === current;
        return (
          <li key={label} className="flex items-center gap-2" aria-current={active ? 'step' : undefined}>
            <span
              className={cn(
                'flex size-8 items-center justify-center rounded-full border text-sm font-semibold',
                done && 'border-primary bg-primary text-primary-foreground',
                active && 'border-primary bg-primary-soft text-primary',
                !done && !active && 'border-border text-muted-foreground',
              )}
            >
              {done ? <Check className="size-4" aria-label="done" /> : index + 1}
            </span>
            <span className={cn('text-sm font-medium', active ? 'text-foreground' : 'text-muted-foreground')}>{label}</span>
            {index < steps.length - 1 && <span aria-hidden className="hidden h-px w-10 bg-border sm:block" />}
          </li>
        );
      })}
    </ol>
  );
}
