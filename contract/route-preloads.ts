import type { Locale } from './locale.js';

/**
 * What the build tells the server about each screen's code (scripts/route-preload-plugin.ts writes it,
 * server/plugins/spa.ts reads it to name the first screen's chunks in index.html).
 */
export const ROUTE_PRELOADS = '.vite/route-preloads.json';

export interface RoutePreloads {
  /**
   * Route patterns of the SPA's route table (without the locale prefix) and the chunks of their screen (a
   * signed-in screen's with its frame's, named only to a browser that holds a session).
   */
  routes: { path: string; files: string[]; signedIn: boolean }[];
  /** Each language's text chunk, by locale (src/routing/locale.ts). */
  texts: Record<Locale, string>;
  /** Each language's texts of the signed-in frame, named with a signed-in screen's chunks. */
  accountTexts: Record<Locale, string>;
}
