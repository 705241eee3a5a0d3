import * as ToastPrimitive from '@radix-ui/react-toast';
import { AlertCircle, CheckCircle2, X } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { cn } from './cn.js';
import { toasts } from './toast-store.js';

/** How long a toast stays up (spec: default 5000 ms). */
export const TOAST_DURATION_MS = 5000;

/**
 * The app's one toast region. Radix gives the rest of the spec for free:
 * F8 moves focus to the region, a 50 px swipe dismisses, hovering pauses the timer.
 */
export function Toaster() {
  const current = useSyncExternalStore(toasts.subscribe, toasts.current);
  const destructive = current?.variant === 'destructive';
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={50} label="Notification">
      {current && (
        <ToastPrimitive.Root
          key={current.id}
          type={destructive ? 'foreground' : 'background'}
          onOpenChange={(open) => {
            if (!open) toasts.dismiss(current.id);
          }}
          data-variant={current.variant ?? 'default'}
          className={cn(
            'pointer-events-auto flex w-full items-start gap-3 rounded-xl border p-4 pr-10 shadow-float data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=end]:translate-x-full',
            destructive
              ? 'border-destructive/30 bg-destructive-soft text-destructive-foreground'
              : 'border-border bg-surface text-foreground',
          )}
        >
          {destructive ? (
            <AlertCircle className="mt-0.5 size-5 shrink-0" aria-hidden />
          ) : (
            <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-success" aria-hidden />
          )}
          <div className="flex flex-col gap-1">
            <ToastPrimitive.Title className="text-sm font-semibold">{current.title}</ToastPrimitive.Title>
            {current.description && (
              <ToastPrimitive.Description className="text-sm opacity-90">{current.description}</ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close
            aria-label="Dismiss notification"
            className="absolute top-3 right-3 cursor-pointer rounded-md p-1 opacity-70 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-ring"
          >
            <X className="size-4" aria-hidden />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      )}
      <ToastPrimitive.Viewport className="fixed right-0 bottom-0 z-[100] m-0 flex w-full max-w-sm list-none flex-col gap-2 p-4 outline-none sm:p-6" />
    </ToastPrimitive.Provider>
  );
}
