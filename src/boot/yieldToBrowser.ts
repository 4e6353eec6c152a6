/**
 * Ends the current task: the browser may paint and answer input before the code after the `await` runs.
 *
 * Evaluating the entry chunk (React, React Router, MUI and emotion, the theme, the route tree, i18next) was
 * one task of about 90 ms on this machine, 350 ms on the phone Lighthouse simulates (4x slower CPU), all of
 * it total blocking time. ES modules evaluate in import order, and a module that awaits at its top level
 * makes the rest of the graph wait for it, so a module of src/boot/ imported between two others ends one
 * task and starts the next there (issue 18). Each boundary is its own module: a module is evaluated once,
 * however often it is imported.
 */
export function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
