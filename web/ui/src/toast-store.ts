/** A toast as the app raises it; the spec's two variants. */
export type ToastInput = { title: string; description?: string; variant?: 'default' | 'destructive' };
export type ToastItem = ToastInput & { id: number };

type Listener = (toast: ToastItem | null) => void;

/**
 * The spec shows one toast at a time: a new toast replaces the one on screen.
 * A module-level store lets any code (an RTK Query callback, a guard) raise one
 * without threading a context through.
 */
export function createToastStore() {
  let current: ToastItem | null = null;
  let nextId = 1;
  const listeners = new Set<Listener>();
  const emit = () => listeners.forEach((listener) => listener(current));
  return {
    show(input: ToastInput): number {
      current = { ...input, id: nextId++ };
      emit();
      return current.id;
    },
    dismiss(id?: number) {
      if (current !== null && (id === undefined || current.id === id)) {
        current = null;
        emit();
      }
    },
    current: () => current,
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type ToastStore = ReturnType<typeof createToastStore>;

export const toasts = createToastStore();

export function toast(input: ToastInput): number {
  return toasts.show(input);
}
