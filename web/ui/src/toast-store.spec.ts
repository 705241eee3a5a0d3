import { createToastStore } from './toast-store.js';

describe('toast store', () => {
  it('keeps only the newest toast, so one is visible at a time', () => {
    const store = createToastStore();
    const seen: (string | null)[] = [];
    store.subscribe((item) => seen.push(item?.title ?? null));
    store.show({ title: 'Copied' });
    store.show({ title: 'Cleared', variant: 'destructive' });
    expect(store.current()?.title).toBe('Cleared');
    expect(seen).toEqual(['Copied', 'Cleared']);
  });

  it('dismisses only the toast it was asked to', () => {
    const store = createToastStore();
    const first = store.show({ title: 'first' });
    store.show({ title: 'second' });
    store.dismiss(first);
    expect(store.current()?.title).toBe('second');
    store.dismiss();
    expect(store.current()).toBeNull();
  });
});
