import { Children, isValidElement, startTransition, Suspense, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';

/** What a user does before they read further down: press a key (Tab, Page Down, Ctrl+F), a pointer, or a wheel. */
const ENGAGING = ['keydown', 'pointerdown', 'wheel'] as const;

/** The attribute of the mark left where parts still wait to come on screen (the browser tests scroll until it is gone). */
export const WAITING_PARTS = 'data-waiting-parts';

/**
 * Renders its children one after another: none at first, then one more after each commit, each in a task
 * and a transition of its own, and each in a Suspense boundary of its own (a lazy part shows when its code
 * is in, without holding up the others). React cannot cut a commit into slices; parts revealed one at a time
 * commit one at a time, so a screen of many sections is several short tasks on a phone instead of one long
 * one (Lighthouse's total blocking time), and the browser paints and answers input between them. For what
 * comes below a screen's first view.
 *
 * `asNeeded`: a part is drawn only while the end of what is shown is on the screen, or once the user has
 * pressed a key, a pointer or a wheel in the page (a touch is a pointer; Tab, Page Down and Ctrl+F are keys),
 * after which the rest follows one by one. For parts below what a phone shows first: drawing them during the
 * load costs main-thread time that nothing on screen needs. While parts wait, the end of what is shown carries
 * the mark `WAITING_PARTS`.
 *
 * `onShown` is called once every part has committed, so what comes below can follow them instead of coming
 * in between (content pushed down is a layout shift).
 */
export function Staggered({ children, asNeeded = false, onShown }: { children: ReactNode; asNeeded?: boolean; onShown?: () => void }) {
  const parts = Children.toArray(children);
  const [revealed, setRevealed] = useState(0);
  const engaged = useEngaged(asNeeded && revealed < parts.length);
  const end = useRef<HTMLDivElement>(null);
  const allShown = revealed >= parts.length;
  useEffect(() => {
    if (allShown) onShown?.();
  }, [allShown, onShown]);
  useEffect(() => {
    if (revealed >= parts.length) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reveal = () => {
      timer = setTimeout(() => startTransition(() => setRevealed((shown) => shown + 1)), 0);
    };
    const marker = end.current;
    if (!asNeeded || engaged || !marker || typeof IntersectionObserver === 'undefined') {
      reveal();
      return () => clearTimeout(timer);
    }
    // A new observer for each part: its first answer says where the end of what is shown is now.
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      reveal();
    });
    observer.observe(marker);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [revealed, parts.length, asNeeded, engaged]);
  return (
    <>
      {parts.slice(0, revealed).map((part, index) => (
        <Suspense key={isValidElement(part) ? part.key : index} fallback={null}>
          {part}
        </Suspense>
      ))}
      {asNeeded && revealed < parts.length && <div ref={end} aria-hidden="true" {...{ [WAITING_PARTS]: '' }} />}
    </>
  );
}

/** Whether the user has pressed a key, a pointer or a wheel in this document (listened to only while a part waits). */
let engagedSoFar = false;
const waiting = new Set<() => void>();
const engage = () => {
  engagedSoFar = true;
  for (const type of ENGAGING) window.removeEventListener(type, engage, { capture: true });
  for (const notify of waiting) notify();
  waiting.clear();
};

function subscribe(notify: () => void): () => void {
  if (engagedSoFar) return () => undefined;
  if (waiting.size === 0) for (const type of ENGAGING) window.addEventListener(type, engage, { capture: true, passive: true });
  waiting.add(notify);
  return () => {
    waiting.delete(notify);
    if (waiting.size === 0 && !engagedSoFar) for (const type of ENGAGING) window.removeEventListener(type, engage, { capture: true });
  };
}

const subscribeToNothing = () => () => undefined;

function useEngaged(listening: boolean): boolean {
  return useSyncExternalStore(listening ? subscribe : subscribeToNothing, () => engagedSoFar, () => false);
}
