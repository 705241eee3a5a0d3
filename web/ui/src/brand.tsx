import { ShieldCheck } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from './cn.js';

export type VigilLogoProps = ComponentProps<'span'> & {
  /** A product area shown after the name, e.g. "Admin". */
  suffix?: string;
};

export function VigilLogo({ className, suffix, ...props }: VigilLogoProps) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold tracking-tight', className)} {...props}>
      <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground shadow-sm">
        <ShieldCheck className="size-4.5" aria-hidden />
      </span>
      <span className="text-lg">Vigil</span>
      {suffix && (
        <span className="rounded-md bg-muted px-1.5 py-0.5 text-xs font-medium text-muted-foreground">{suffix}</span>
      )}
    </span>
  );
}
