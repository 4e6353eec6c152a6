import * as React from 'react';

/**
 * @emotion/use-insertion-effect-with-fallbacks for the production build (vite.config.ts aliases it here).
 * Emotion inserts a component's styles (stylis, then insertRule) in an insertion effect, which React runs
 * in the commit: the one part of a render it cannot cut into slices. A signed-in screen's first commit
 * carried all of it (a third of a 344 ms task on Lighthouse's phone, `npm run bench:profile`). Inserted
 * during render instead (what Emotion does on React 17 and on edge runtimes: its "sync fallback"), the work
 * falls in the render phase, which a transition renders in slices. Styles are keyed by their hash, so a
 * render that React throws away leaves at most a rule no element uses yet.
 */
export function useInsertionEffectAlwaysWithSyncFallback<T>(create: () => T): T {
  return create();
}

/** Unchanged: Emotion's global styles still insert in an insertion (or layout) effect. */
export const useInsertionEffectWithLayoutFallback = React.useInsertionEffect;
