import { Loader2 } from 'lucide-react';
import { cn } from './cn.js';

/** A spinner with its words beside it, announced politely, so a wait is never silent for screen readers. */
export function Spinner({ label, className }: { label: string; className?: string }) {
  return (
    <div role="status" className={cn('flex items-center justify-center gap-3 text-sm text-muted-foreground', className)}>
      <Loader2 className="size-5 animate-spin text-primary motion-reduce:animate-none" aria-hidden />
      <span>{label}</span>
    </div>
  );
}
