/**
 * Where failed API calls publish their messageKey (spec section 7) so one place in the UI can show
 * the translated text. A tiny observable; the UI subscribes once.
 */
type Listener = (messageKey: string) => void;

export interface MessageBus {
  publish(messageKey: string): void;
  subscribe(listener: Listener): () => void;
}

export function createMessageBus(): MessageBus {
  const listeners = new Set<Listener>();
  return {
    publish(messageKey) {
      for (const listener of listeners) listener(messageKey);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
