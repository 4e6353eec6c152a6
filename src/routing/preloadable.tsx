import type { ComponentType } from 'react';

/** A component whose code is split off, and the way to ask for that code before React does. */
export interface Preloadable<P extends object> {
  Component: ComponentType<P>;
  /** Downloads and evaluates the module once; a failure is the component's to show when it renders. */
  preload(): Promise<void>;
}

/**
 * A code-split component that renders at once when its module is already there. React.lazy suspends on
 * its first render even when the module arrived long before (it reads the promise a microtask later), so a
 * screen whose code src/main.tsx fetched before the first render would still mount its Suspense fallback,
 * paint it, and render the screen in a second pass. Here the component suspends only while the module is
 * really on its way (the promise it throws is the Suspense protocol React.lazy itself uses), and a failed
 * download is thrown to the nearest error boundary, once, as React.lazy does.
 */
export function preloadable<P extends object>(loader: () => Promise<{ default: ComponentType<P> }>): Preloadable<P> {
  let loaded: ComponentType<P> | null = null;
  let failure: { error: unknown } | null = null;
  let pending: Promise<void> | null = null;
  const load = () => {
    pending ??= loader().then(
      (module) => {
        loaded = module.default;
      },
      (error: unknown) => {
        failure = { error };
      },
    );
    return pending;
  };
  function PreloadedComponent(props: P) {
    if (failure) throw failure.error;
    // Suspense: React shows the fallback until the thrown promise settles, then renders again.
    if (!loaded) throw load();
    const Loaded = loaded;
    return <Loaded {...props} />;
  }
  return {
    Component: PreloadedComponent,
    preload: load,
  };
}
