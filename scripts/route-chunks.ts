import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build, type Plugin, type Rolldown } from 'vite';
import { ROUTES } from '../src/routing/routes.js';
import type { Manifest } from './bundle-weights.js';
import { screenFiles, wideScreenFiles } from './route-preload-plugin.js';

/** Set in the environment of the first of the build's two passes (see routeChunks). */
const PLAN_PASS = 'SHAPELAB_ROUTE_CHUNKS_PLAN';

let entryGraph: Set<string> | null = null;
/** The group of each module the second pass regroups, by the routes that load it (see routeChunks). */
let plan = new Map<string, string>();

/**
 * The modules every page runs before its first render: the entry's static imports, all the way down. Left to
 * itself the bundler cuts them into some twenty chunks (one per set of lazy chunks that shares them); every
 * page downloads all of them anyway, so they are one chunk: one request instead of twenty on HTTP/1.1's six
 * connections, and one gzip dictionary instead of twenty (Lighthouse's request chain; the 160 KB budget).
 * The entry script itself stays the entry chunk (index.html names it, and the manifest keys it).
 */
export function inEntryGraph(id: string, ctx: Rolldown.ChunkingContext): boolean {
  if (!entryGraph) {
    const seen = new Set<string>();
    const up = [id];
    let entry: string | null = null;
    while (up.length > 0 && entry === null) {
      const current = up.pop() as string;
      if (seen.has(current)) continue;
      seen.add(current);
      const info = ctx.getModuleInfo(current);
      if (info?.isEntry) entry = current;
      else if (info) up.push(...info.importers, ...info.dynamicImporters);
    }
    if (entry === null) return false;
    entryGraph = new Set();
    const down = [entry];
    while (down.length > 0) {
      const current = down.pop() as string;
      if (entryGraph.has(current)) continue;
      entryGraph.add(current);
      down.push(...(ctx.getModuleInfo(current)?.importedIds ?? []));
    }
  }
  return entryGraph.has(id) && !ctx.getModuleInfo(id)?.isEntry && !id.endsWith('/src/main.tsx');
}

/**
 * What a route loads on a wide screen only (scripts/bundle-weights.ts, WIDE_SCREEN_MODULES), grouped as a
 * route of its own: a phone downloads none of it, and a wide screen nothing beside it.
 */
export const wideScreenRoute = (path: string) => `${path} (wide screen)`;

/** The group the second pass puts a module in, or null where the bundler's own split stays. */
export function routeChunkName(id: string): string | null {
  return plan.get(id) ?? null;
}

/**
 * The parts the sign-in and registration forms share (with what the sign-in form, its second step and the
 * security page ask the browser about passkeys), and the sign-in form's own: two chunks of their own
 * (vite.config.ts), so the public pages load them together instead of in ten small files.
 */
export const FORM_GROUPS = [
  { name: 'form-parts', test: /src\/(components\/(SocialButtons|social|ErrorAlert|PageCard|StepLabel|form\/(PasswordInput|TextInput|useFormFields))|passkeys\/support)\.tsx?$/ },
  { name: 'sign-in-form', test: /src\/pages\/auth\/(SignInForm|useSignIn)\.tsx?$/ },
];

/**
 * A shared chunk this small (bytes of minified code; about 400 gzip) costs its routes a round trip more than
 * its bytes do: it joins a larger chunk that every route loading it loads anyway, and the routes of that chunk
 * that do not need it download it with it.
 */
export const SMALL_CHUNK = 1_000;

const ACCOUNT_ROUTES = ROUTES.filter((route) => route.layout === 'account').map((route) => route.path);

function groupName(routes: Set<string>): string {
  if (routes.size === ACCOUNT_ROUTES.length && ACCOUNT_ROUTES.every((route) => routes.has(route))) return 'account-frame';
  if (routes.size === ROUTES.length) return 'shared-all';
  return `shared-${createHash('sha256').update([...routes].sort().join('\n')).digest('hex').slice(0, 8)}`;
}

/**
 * Shared chunks by the routes that load them. The bundler splits by its lazy imports, which are finer than
 * the routes (each profile section, each dialog is one): it cut a signed-in screen's code into sixty-odd
 * files, many under 1 KB, and on HTTP/1.1's six connections each costs a round trip (150 ms in
 * Lighthouse's mobile model, 2026-11-27: the cold profile's first paint came at 3.5 s). Chunks that the same
 * routes load as they first show (scripts/route-preload-plugin.ts) become one, so no route downloads a byte
 * it did not before (but the few hundred of a small chunk, SMALL_CHUNK): the profile needs 24 files beyond
 * the entry instead of 62, the sign-in page 8 instead of 22.
 *
 * Which routes load a chunk is known only once the bundler has split and shaken the code (a module that a
 * package's index imports may never be used), so the build runs twice: a first pass in memory, with the
 * bundler's own split, plans the groups; the build itself then applies them. Lazily imported modules keep
 * their chunks (a screen, a profile section that evaluates in a task of its own, a language's texts), and so
 * does code no screen loads as it first shows (a dialog opened by a click). What a screen loads only on a
 * wide screen (the admin users' grid) is grouped as a route of its own.
 */
export function routeChunks(): Plugin {
  let configFile: string | undefined;
  let mode = 'production';
  return {
    name: 'shapelab-route-chunks',
    apply: (_config, env) => env.command === 'build' && process.env[PLAN_PASS] === undefined,
    configResolved(config) {
      configFile = config.configFile;
      mode = config.mode;
    },
    async buildStart() {
      entryGraph = null;
      plan = new Map();
      const outDir = mkdtempSync(path.join(tmpdir(), 'shapelab-plan-'));
      process.env[PLAN_PASS] = '1';
      try {
        const result = await build({ configFile, mode, logLevel: 'warn', build: { write: false, outDir, emptyOutDir: false } });
        if (!Array.isArray(result) && !('output' in result)) throw new Error('The planning pass started a watcher');
        const files = (Array.isArray(result) ? result : [result]).flatMap((one) => one.output);
        const manifestAsset = files.find((file): file is Rolldown.OutputAsset => file.type === 'asset' && file.fileName === '.vite/manifest.json');
        if (!manifestAsset) throw new Error('The planning pass wrote no manifest');
        const { source } = manifestAsset;
        const manifest = JSON.parse(typeof source === 'string' ? source : new TextDecoder().decode(source)) as Manifest;
        const routesOf = new Map<string, Set<string>>();
        const add = (file: string, route: string) => routesOf.set(file, (routesOf.get(file) ?? new Set()).add(route));
        for (const route of ROUTES) {
          for (const file of screenFiles(manifest, route)) add(file, route.path);
          for (const file of wideScreenFiles(manifest, route)) add(file, wideScreenRoute(route.path));
        }
        const shared = files.filter((file): file is Rolldown.OutputChunk => file.type === 'chunk' && !file.isEntry && !file.isDynamicEntry && routesOf.has(file.fileName));
        const routesOfChunk = (chunk: Rolldown.OutputChunk) => routesOf.get(chunk.fileName) as Set<string>;
        for (const chunk of shared) {
          let routes = routesOfChunk(chunk);
          if (Buffer.byteLength(chunk.code) < SMALL_CHUNK) {
            // The smallest group of larger chunks that every route loading this one loads too.
            const host = shared
              .filter((other) => Buffer.byteLength(other.code) >= SMALL_CHUNK && [...routes].every((route) => routesOfChunk(other).has(route)))
              .sort((a, b) => routesOfChunk(a).size - routesOfChunk(b).size)[0];
            if (host) routes = routesOfChunk(host);
          }
          const name = groupName(routes);
          for (const id of chunk.moduleIds) plan.set(id, name);
        }
      } finally {
        entryGraph = null;
        delete process.env[PLAN_PASS];
        rmSync(outDir, { recursive: true, force: true });
      }
    },
  };
}
