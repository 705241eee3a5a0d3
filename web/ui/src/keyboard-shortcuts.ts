/**
 * Single-key shortcuts for work queues (J/K, A/B, ?): the pure part, kept apart from React so the
 * rules for when a key counts are tested on their own.
 */

/** One shortcut as the help overlay lists it and the hook runs it. */
export type KeyboardShortcut = {
  /** `event.key` values, compared case-insensitively for letters: `['j', 'ArrowDown']`, `['?']`. */
  keys: readonly string[];
  /** What it does, in the overlay's words. */
  description: string;
  /** Omitted for shortcuts only listed in the overlay (a field's own Ctrl+Enter, say). */
  run?: (event: KeyboardEvent) => void;
  /**
   * Also run when focus is on a button, link or choice (radio, checkbox), whose own Enter or Space
   * would otherwise act first. Off by default: Enter on a focused button must click that button.
   */
  overInteractive?: boolean;
};

const TYPING_INPUT_TYPES = new Set([
  'text',
  'search',
  'email',
  'password',
  'number',
  'tel',
  'url',
  'date',
  'datetime-local',
  'month',
  'time',
  'week',
]);

type ElementLike = {
  tagName?: string;
  type?: string;
  isContentEditable?: boolean;
  closest?: (selector: string) => unknown;
};

/** True when keys typed now are text for a field (or a select's type-ahead), not commands. */
export function isTypingTarget(target: unknown): boolean {
  const element = target as ElementLike | null;
  if (!element || typeof element.tagName !== 'string') return false;
  const tag = element.tagName.toLowerCase();
  if (tag === 'textarea' || tag === 'select') return true;
  if (element.isContentEditable) return true;
  return tag === 'input' && TYPING_INPUT_TYPES.has((element.type ?? 'text').toLowerCase());
}

/** True when Enter or Space on the target already does something of its own. */
export function isInteractiveTarget(target: unknown): boolean {
  const element = target as ElementLike | null;
  if (!element || typeof element.tagName !== 'string') return false;
  const tag = element.tagName.toLowerCase();
  if (tag === 'button' || tag === 'a' || tag === 'summary') return true;
  if (tag === 'input') return true;
  const role = (element as { getAttribute?: (name: string) => string | null }).getAttribute?.('role');
  return role === 'button' || role === 'link' || role === 'radio' || role === 'checkbox' || role === 'tab';
}

type KeyEventLike = {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: unknown;
  defaultPrevented: boolean;
  isComposing?: boolean;
};

/**
 * The shortcut a key press means, or undefined when it means none: with Ctrl, Meta or Alt held
 * (the browser's and the system's own shortcuts), while typing in a field, during IME composition,
 * or when something already handled the event.
 */
export function shortcutFor<S extends KeyboardShortcut>(event: KeyEventLike, shortcuts: readonly S[]): S | undefined {
  if (event.defaultPrevented || event.isComposing) return undefined;
  if (event.ctrlKey || event.metaKey || event.altKey) return undefined;
  if (isTypingTarget(event.target)) return undefined;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const found = shortcuts.find(
    (shortcut) =>
      shortcut.run !== undefined && shortcut.keys.some((k) => (k.length === 1 ? k.toLowerCase() : k) === key),
  );
  if (!found) return undefined;
  if (!found.overInteractive && isInteractiveTarget(event.target) && (key === 'Enter' || key === ' ')) {
    return undefined;
  }
  return found;
}

/** How a key is written in the overlay. */
export function keyLabel(key: string): string {
  switch (key) {
    case 'ArrowDown':
      return '↓';
    case 'ArrowUp':
      return '↑';
    case 'Escape':
      return 'Esc';
    case ' ':
      return 'Space';
    default:
      return key.length === 1 ? key.toUpperCase() : key;
  }
}
