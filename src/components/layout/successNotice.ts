import { useSyncExternalStore } from 'react';

/** The success an action reported, shown above the page (SuccessNotice.tsx); `key` is Refine's, for `close`. */
export interface Success {
  id: number;
  key: string | undefined;
  title: string;
  description: string | undefined;
}

let current: Success | null = null;
let nextId = 1;
const listeners = new Set<() => void>();
const changed = () => {
  for (const listener of listeners) listener();
};

/** Shows a success in place of the one shown. */
export function showSuccess(success: Omit<Success, 'id'>): void {
  current = { ...success, id: nextId++ };
  changed();
}

/** Closes the success shown (all of it, or only the one with Refine's `key`). */
export function closeSuccess(key?: string): void {
  if (current === null || (key !== undefined && current.key !== key)) return;
  current = null;
  changed();
}

export function useSuccess(): Success | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
}
