import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from './cn.js';

const alertVariants = cva('flex gap-3 rounded-lg border p-3 text-sm [&>svg]:mt-0.5 [&>svg]:size-4 [&>svg]:shrink-0', {
  variants: {
    tone: {
      info: 'border-primary/20 bg-primary-soft text-primary',
      success: 'border-success/25 bg-success-soft text-success-foreground',
      warning: 'border-warning/40 bg-warning-soft text-warning-foreground',
      destructive: 'border-destructive/25 bg-destructive-soft text-destructive-foreground',
    },
  },
  defaultVariants: { tone: 'info' },
});

export type AlertProps = ComponentProps<'div'> & VariantProps<typeof alertVariants>;

/** A message in the flow of the page. Errors announce themselves to screen readers; others are polite. */
export function Alert({ className, tone, role, ...props }: AlertProps) {
  return (
    <div
      role={role ?? (tone === 'destructive' ? 'alert' : 'status')}
      className={cn(alertVariants({ tone }), className)}
      {...props}
    />
  );
}

export function AlertTitle({ className, ...props }: ComponentProps<'p'>) {
  return <p className={cn('font-semibold', className)} {...props} />;
}

export function AlertDescription({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('opacity-90', className)} {...props} />;
}
