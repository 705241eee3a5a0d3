import { useEffect, useRef } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from './dialog.js';
import { Kbd } from './kbd.js';
import { keyLabel, shortcutFor, type KeyboardShortcut } from './keyboard-shortcuts.js';

/**
 * Runs single-key shortcuts on the whole page while `active`. The latest shortcuts are read on
 * each key press, so callers may pass a fresh array every render.
 */
export function useKeyboardShortcuts(shortcuts: readonly KeyboardShortcut[], active = true): void {
  const latest = useRef(shortcuts);
  latest.current = shortcuts;
  useEffect(() => {
    if (!active) return;
    const onKeyDown = (event: KeyboardEvent) => {
      // A modal (the help overlay, a confirmation) owns the keyboard while it is open.
      if (event.target instanceof Element && event.target.closest('[role="dialog"], [role="alertdialog"]')) return;
      const shortcut = shortcutFor(event, latest.current);
      if (!shortcut?.run) return;
      event.preventDefault();
      shortcut.run(event);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [active]);
}

/** The `?` overlay: every shortcut of the page, its keys and what it does. */
export function ShortcutsHelpDialog({
  open,
  onOpenChange,
  shortcuts,
  title = 'Keyboard shortcuts',
  description = 'Shortcuts are off while you type in a field.',
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  shortcuts: readonly KeyboardShortcut[];
  title?: string;
  description?: string;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
        <dl className="mt-4 flex flex-col divide-y divide-border text-sm" aria-label={title}>
          {shortcuts.map((shortcut) => (
            <div
              key={`${shortcut.description}-${shortcut.keys.join()}`}
              className="flex items-center justify-between gap-4 py-2"
            >
              <dt className="text-foreground">{shortcut.description}</dt>
              <dd className="flex shrink-0 items-center gap-1">
                {shortcut.keys.map((key, i) => (
                  <span key={key} className="flex items-center gap-1">
                    {i > 0 && <span className="text-xs text-muted-foreground">or</span>}
                    <Kbd>{keyLabel(key)}</Kbd>
                  </span>
                ))}
              </dd>
            </div>
          ))}
        </dl>
      </DialogContent>
    </Dialog>
  );
}
