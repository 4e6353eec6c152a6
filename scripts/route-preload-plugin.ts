import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { LOCALES } from '../src/routing/locale.js';
import { ROUTES, type RouteEntry } from '../src/routing/routes.js';
import { ROUTE_PRELOADS, type RoutePreloads } from '../contract/route-preloads.js';
import { chunkClosure, lazyScreenParts, type Manifest, readManifest, screenModules, wideScreenParts } from './bundle-weights.js';

/** The chunks a route loads as it first shows beyond the entry's: its screen's and frame's, and their lazy parts. */
export function screenFiles(manifest: Manifest, route: RouteEntry): string[] {
  const entryFiles = new Set(chunkClosure(manifest, ['index.html']));
  return chunkClosure(manifest, [...screenModules(route), ...lazyScreenParts(manifest, route)]).filter((file) => !entryFiles.has(file));
}

/** The chunks a route loads on a wide screen only (the admin users' grid), beyond the entry's and its screen's. */
export function wideScreenFiles(manifest: Manifest, route: RouteEntry): string[] {
  const loaded = new Set([...chunkClosure(manifest, ['index.html']), ...screenFiles(manifest, route)]);
  return chunkClosure(manifest, wideScreenParts(manifest, route)).filter((file) => !loaded.has(file));
}

/**
 * The first screen's chunks, named in the page itself. Without them the browser learns of a screen's code
 * only once the entry has run and asked for it (one round trip more), and the entry then adds a
 * `<link rel=modulepreload>` for each of the screen's chunks from script: some twenty for the sign-in
 * page (40 ms of main-thread work on a phone), forty-odd for a signed-in one. The server puts these links
 * into index.html for the requested route; the entry's loader sees them there and adds none. A signed-in
 * screen's are named only to a browser with a session (contract/session-hint.ts): a visitor without one is
 * sent on to sign-in and must not download the signed-in frame on the way.
 */
export function routePreloads(): Plugin {
  let outDir = 'dist';
  return {
    name: 'shapelab-route-preloads',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      const manifest = readManifest(outDir);
      // Each language's chunk of one text file (locales/<locale>/<name>.json).
      const textChunks = (name: string) =>
        Object.fromEntries(LOCALES.map((locale) => [locale, manifest[`locales/${locale}/${name}.json`]?.file ?? ''])) as RoutePreloads['texts'];
      const preloads: RoutePreloads = {
        routes: ROUTES.map((route) => ({ path: route.path, files: screenFiles(manifest, route), signedIn: route.layout === 'account' })),
        texts: textChunks('translation'),
        accountTexts: textChunks('account'),
      };
      writeFileSync(path.join(outDir, ROUTE_PRELOADS), JSON.stringify(preloads));
    },
  };
}
