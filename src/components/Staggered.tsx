import { Children, isValidElement, startTransition, Suspense, useEffect, useState, type ReactNode } from 'react';

/**
 * Renders its children one after another: none at first, then one more after each commit, each in a task
 * and a transition of its own, and each in a Suspense boundary of its own (a lazy part shows when its code
 * is in, without holding up the others). React cannot cut a commit into slices; parts revealed one at a time
 * commit one at a time, so a screen of many sections is several short tasks on a phone instead of one long
 * one (Lighthouse's total blocking time), and the browser paints and answers input between them. For what
 * comes below a screen's first view.
 */
export function Staggered({ children }: { children: ReactNode }) {
  const parts = Children.toArray(children);
  const [revealed, setRevealed] = useState(0);
  useEffect(() => {
    if (revealed >= parts.length) return;
    const timer = setTimeout(() => startTransition(() => setRevealed((shown) => shown + 1)), 0);
    return () => clearTimeout(timer);
  }, [revealed, parts.length]);
  return parts.slice(0, revealed).map((part, index) => (
    <Suspense key={isValidElement(part) ? part.key : index} fallback={null}>
      {part}
    </Suspense>
  ));
}
