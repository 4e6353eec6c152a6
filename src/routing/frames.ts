/**
 * The signed-in frame's lazy modules, named once: the router (src/App.tsx) renders them and the warm-up
 * (./warmUp.ts) fetches them early. Written once, the bundler lists each one's dependencies once.
 */
/** <Refine> (src/refine.ts) and its MUI layout; public pages never load either. */
export const loadAccountLayout = () => import('../components/layout/AccountLayout.js');
/** Asks Refine's access control provider whether the user may see a signed-in screen (./AccessGate.tsx). */
export const loadAccessGate = () => import('./AccessGate.js');
