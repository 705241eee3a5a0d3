import type { ComponentProps } from 'react';
import { cn } from './cn.js';

/** A key as written on the keyboard. */
export function Kbd({ className, ...props }: ComponentProps<'kbd'>) {
  return (
    <kbd
      className={cn(
        'inline-flex h-6 min-w-6 items-center justify-center rounded-md border border-border border-b-2 bg-surface px-1.5 font-sans text-xs font-medium text-foreground',
        className,
      )}
      {...props}
    />
  );
}
