import { isTypingTarget, keyLabel, shortcutFor, type KeyboardShortcut } from './keyboard-shortcuts.js';

const element = (tagName: string, extra: Record<string, unknown> = {}) => ({
  tagName: tagName.toUpperCase(),
  getAttribute: (name: string) => (extra[name] as string | undefined) ?? null,
  ...extra,
});

const press = (key: string, target: unknown = element('div'), extra: Record<string, unknown> = {}) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  defaultPrevented: false,
  target,
  ...extra,
});

const noop = () => undefined;
const SHORTCUTS: KeyboardShortcut[] = [
  { keys: ['j', 'ArrowDown'], description: 'Next', run: noop },
  { keys: ['a'], description: 'Approve', run: noop },
  { keys: ['?'], description: 'Help', run: noop },
  { keys: ['Enter'], description: 'Confirm', run: noop },
  { keys: ['Enter'], description: 'Listed only' },
];

describe('keyboard shortcuts', () => {
  it('finds a shortcut by key, letters in either case', () => {
    expect(shortcutFor(press('j'), SHORTCUTS)?.description).toBe('Next');
    expect(shortcutFor(press('J'), SHORTCUTS)?.description).toBe('Next');
    expect(shortcutFor(press('ArrowDown'), SHORTCUTS)?.description).toBe('Next');
    expect(shortcutFor(press('?'), SHORTCUTS)?.description).toBe('Help');
    expect(shortcutFor(press('x'), SHORTCUTS)).toBeUndefined();
  });

  it('is off while typing in a field, and with a modifier held', () => {
    expect(shortcutFor(press('a', element('input', { type: 'text' })), SHORTCUTS)).toBeUndefined();
    expect(shortcutFor(press('a', element('textarea')), SHORTCUTS)).toBeUndefined();
    expect(shortcutFor(press('a', element('select')), SHORTCUTS)).toBeUndefined();
    expect(shortcutFor(press('a', element('div', { isContentEditable: true })), SHORTCUTS)).toBeUndefined();
    expect(shortcutFor(press('a', element('div'), { ctrlKey: true }), SHORTCUTS)).toBeUndefined();
    expect(shortcutFor(press('a', element('div'), { isComposing: true }), SHORTCUTS)).toBeUndefined();
    // A radio is a choice, not a text field: letters still act.
    expect(shortcutFor(press('a', element('input', { type: 'radio' })), SHORTCUTS)?.description).toBe('Approve');
  });

  it('leaves Enter on a focused button to the button, and never runs a listed-only entry', () => {
    expect(shortcutFor(press('Enter', element('button')), SHORTCUTS)).toBeUndefined();
    expect(shortcutFor(press('Enter'), SHORTCUTS)?.description).toBe('Confirm');
    expect(
      shortcutFor(press('Enter', element('input', { type: 'radio' })), [
        { keys: ['Enter'], description: 'Confirm', run: noop, overInteractive: true },
      ])?.description,
    ).toBe('Confirm');
  });

  it('tells typing targets apart', () => {
    expect(isTypingTarget(element('input', { type: 'search' }))).toBe(true);
    expect(isTypingTarget(element('input', { type: 'checkbox' }))).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });

  it('writes keys as the overlay shows them', () => {
    expect(['j', 'ArrowDown', 'Escape', ' ', 'Enter'].map(keyLabel)).toEqual(['J', '↓', 'Esc', 'Space', 'Enter']);
  });
});
