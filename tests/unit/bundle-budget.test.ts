// @vitest-environment node
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import { chunkClosure, describeWeight, measureRoutes, readManifest, screenModules, type RouteWeight } from '../../scripts/bundle-weights.js';
import { ROUTES, type RouteEntry } from '../../src/routing/routes.js';
import { ensureSpaBuilt } from '../../scripts/spa-build.js';
import { ROUTE_PRELOADS, type RoutePreloads } from '../../contract/route-preloads.js';
import { FORM_GROUPS, SMALL_CHUNK, wideScreenRoute } from '../../scripts/route-chunks.js';
import { MODULES_REPORT, type ModulesReport } from '../../scripts/bundle-report-plugin.js';
import { wideScreenFiles } from '../../scripts/route-preload-plugin.js';

/**
 * JavaScript weight budgets per route (issue "Budgets"): gzip of everything the browser downloads to
 * render the route, read from the production build's manifest. A failure names the route, its size and
 * the packages that make it up.
 */
/** The production build that the budgets read. */
const DIST = path.resolve(import.meta.dirname, '../../dist');
let weights: RouteWeight[] = [];

beforeAll(async () => {
  await ensureSpaBuilt(() => undefined);
  weights = measureRoutes(DIST);
}, 120_000);

/**
 * Each shared chunk a route loads as it first shows (manifest keys with a leading underscore, but the form
 * groups, FORM_GROUPS), with the routes that load it, as the server names them in the page; and what a
 * route loads on a wide screen only, under a route of its own, as scripts/route-chunks.ts groups it.
 */
function sharedChunkRoutes(): Map<string, Set<string>> {
  const manifest = readManifest(DIST);
  const preloads = JSON.parse(readFileSync(path.join(DIST, ROUTE_PRELOADS), 'utf8')) as RoutePreloads;
  const shared = new Set(Object.entries(manifest).filter(([key]) => key.startsWith('_') && !FORM_GROUPS.some((group) => key.startsWith(`_${group.name}-`))).map(([, entry]) => entry.file));
  const routesOf = new Map<string, Set<string>>();
  const add = (file: string, route: string) => {
    if (shared.has(file)) routesOf.set(file, (routesOf.get(file) ?? new Set()).add(route));
  };
  for (const route of preloads.routes) for (const file of route.files) add(file, route.path);
  for (const route of ROUTES) for (const file of wideScreenFiles(manifest, route)) add(file, wideScreenRoute(route.path));
  return routesOf;
}

/** The longest stretch of `code` between two of the `cuts` (offsets in it), as a share of the whole. */
function largestPartShare(code: string, cuts: number[]): number {
  const bounds = [0, ...cuts, code.length];
  return Math.max(...bounds.slice(1).map((bound, index) => bound - (bounds[index] ?? 0))) / code.length;
}

describe('bundle budgets', () => {
  it('measures every route of the route table', () => {
    expect(weights.length).toBeGreaterThan(30);
    for (const weight of weights) expect(weight.bytes, weight.route).toBeGreaterThan(50_000);
  });

  it('/login, /registration and /forgot-password stay within 160 KB', () => {
    const signIn = weights.filter((w) => ['/login', '/registration', '/forgot-password'].includes(w.route));
    expect(signIn).toHaveLength(3);
    const over = signIn.filter((w) => w.bytes > 160_000).map(describeWeight);
    expect(over, over.join('\n')).toEqual([]);
  });

  it('every route stays within its budget (sign-in 160 KB, account and checkout 350 KB, admin 550 KB)', () => {
    const over = weights.filter((w) => w.bytes > w.budget).map(describeWeight);
    expect(over, `over budget:\n${over.join('\n')}`).toEqual([]);
  });

  it('the admin users and analytics pages are held to 550 KB, account pages to 350 KB', () => {
    const budgetOf = (route: string) => weights.find((w) => w.route === route)?.budget;
    expect(budgetOf('/admin/users')).toBe(550_000);
    expect(budgetOf('/admin/analytics')).toBe(550_000);
    expect(budgetOf('/account/profile')).toBe(350_000);
    expect(budgetOf('/checkout-new/:type/:priceId?')).toBe(350_000);
  });

  it('the MUI X DataGrid loads with the admin users page only', () => {
    // Refine's MUI layout keeps one enum of it (GridLogicOperator, a few hundred bytes) wherever it loads.
    const gridBytes = (weight: RouteWeight) => weight.packages.find((p) => p.name === '@mui/x-data-grid')?.bytes ?? 0;
    expect(weights.filter((w) => gridBytes(w) > 2_000).map((w) => w.route)).toEqual(['/admin/users']);
    expect(gridBytes(weights.find((w) => w.route === '/admin/users') as RouteWeight)).toBeGreaterThan(50_000);
  });

  it("a phone's admin users page (cards) names none of the DataGrid's code for preloading; a wide screen loads it with the grid", () => {
    const preloads = JSON.parse(readFileSync(path.join(DIST, ROUTE_PRELOADS), 'utf8')) as RoutePreloads;
    const report = JSON.parse(readFileSync(path.join(DIST, MODULES_REPORT), 'utf8')) as ModulesReport;
    const named = preloads.routes.find((route) => route.path === 'admin/users')?.files ?? [];
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((file) => (report[file]?.['@mui/x-data-grid'] ?? 0) > 1_000)).toEqual([]);
    const grid = readManifest(DIST)['src/pages/admin/users/UsersGrid.tsx'];
    expect(grid, 'the grid is a chunk of its own').toBeDefined();
    expect(named).not.toContain(grid?.file);
  });

  it('public pages load neither the DataGrid, the charts, the payment client nor Refine', () => {
    const publicRoutes = ['/login', '/registration', '/forgot-password', '/admin/login', '/terms', '/*'];
    for (const route of publicRoutes) {
      const weight = weights.find((w) => w.route === route);
      expect(weight, route).toBeDefined();
      const names = weight?.packages.map((p) => p.name) ?? [];
      const heavy = names.filter((name) => /^@mui\/x-|^@paddle\/|^@refinedev\//.test(name));
      expect(heavy, `${route} loads ${heavy.join(', ')}`).toEqual([]);
      expect(weight?.forbidden).toEqual([]);
    }
  });

  it("no screen carries what Refine and its MUI package import for parts the app does not use (vite.config.ts, SIDE_EFFECT_FREE)", () => {
    // papaparse: Refine's CSV import and export hooks; react-markdown and its kin: Refine MUI's MarkdownField.
    const unused = /^(papaparse|react-markdown|micromark|remark-parse|unified)$/;
    const carriers = weights.flatMap((weight) => weight.packages.filter((p) => unused.test(p.name)).map((p) => `${weight.route}: ${p.name}`));
    expect(carriers).toEqual([]);
  });

  it("a screen's shared code comes in one chunk per set of routes that loads it (scripts/route-chunks.ts)", () => {
    const routesOf = sharedChunkRoutes();
    expect(routesOf.size).toBeGreaterThan(10);
    const byRoutes = new Map<string, string[]>();
    for (const [file, routes] of routesOf) {
      const key = [...routes].join(' ');
      byRoutes.set(key, [...(byRoutes.get(key) ?? []), file]);
    }
    const split = [...byRoutes.values()].filter((files) => files.length > 1).map((files) => files.join(', '));
    expect(split, 'chunks that the same routes load, which could be one').toEqual([]);
  });

  it('a shared chunk of a few hundred bytes rides with a larger one that all its routes load (scripts/route-chunks.ts)', () => {
    const routesOf = sharedChunkRoutes();
    const bytes = (file: string) => statSync(path.join(DIST, file)).size;
    const large = [...routesOf.keys()].filter((file) => bytes(file) >= SMALL_CHUNK);
    expect(large.length).toBeGreaterThan(5);
    const alone = [...routesOf]
      .filter(([file, routes]) => bytes(file) < SMALL_CHUNK && large.some((host) => [...routes].every((route) => routesOf.get(host)?.has(route))))
      .map(([file]) => `${file} (${bytes(file)} bytes)`);
    expect(alone, 'small chunks that could ride with a larger one').toEqual([]);
  });

  it('zxcvbn and its dictionaries load only when a new password is typed: no page loads or preloads them as it shows (issue 44)', () => {
    const manifest = readManifest(DIST);
    const zxcvbn = new Set(Object.entries(manifest).filter(([key]) => key.startsWith('node_modules/@zxcvbn-ts/')).map(([, entry]) => entry.file));
    expect(zxcvbn.size, 'the build has zxcvbn chunks to load on demand').toBeGreaterThanOrEqual(3);
    const preloads = JSON.parse(readFileSync(path.join(DIST, ROUTE_PRELOADS), 'utf8')) as RoutePreloads;
    const named = preloads.routes.flatMap((route) => route.files.filter((file) => zxcvbn.has(file)).map((file) => `${route.path}: ${file}`));
    expect(named, 'routes that name zxcvbn for preloading').toEqual([]);
    const carried = weights.flatMap((weight) => weight.chunks.filter((chunk) => zxcvbn.has(chunk.file)).map((chunk) => `${weight.route}: ${chunk.file}`));
    expect(carried, 'routes that load zxcvbn as they show').toEqual([]);
  });

  it("no screen builds Refine's MUI themes or loads dayjs for its unused date field (vite.config.ts, PURE_FUNCTIONS)", () => {
    const carriers = weights.flatMap((weight) => weight.packages.filter((p) => p.name === 'dayjs').map((p) => `${weight.route}: ${p.name}`));
    expect(carriers).toEqual([]);
    const files = chunkClosure(readManifest(DIST), ['index.html', ...screenModules(ROUTES.find((route) => route.path === 'account/profile') as RouteEntry)]).map((file) =>
      readFileSync(path.join(DIST, file), 'utf8'),
    );
    // Refine's LightTheme and RefineThemes.Green, as their palettes stand in its package.
    expect(files.filter((code) => /#67be23|#689F38/.test(code))).toEqual([]);
    // The frame's Refine code is there (its notification provider), so the absence above means something.
    expect(files.some((code) => code.includes('SnackbarProviderWithDefaultValues'))).toBe(true);
  });

  it('qs comes without side-channel and object-inspect (src/boot/qs.ts)', () => {
    const carriers = weights.flatMap((weight) => weight.packages.filter((p) => /^(qs|side-channel.*|object-inspect|get-intrinsic)$/.test(p.name)).map((p) => `${weight.route}: ${p.name}`));
    expect(carriers).toEqual([]);
    expect(weights.find((weight) => weight.route === '/account/profile')?.packages.some((p) => p.name === 'qs-esm')).toBe(true);
  });

  it("the account screens' frame is the app's own (Frame.tsx): no ThemedSider, so no Tooltip and Popper with it", () => {
    // Refine's ThemedLayout names ThemedSider, and through it MUI's Tooltip and Popper, even with a Sider of ours.
    const account = weights.filter((weight) => weight.route === '/' || weight.route.startsWith('/account/'));
    expect(account.length).toBeGreaterThan(5);
    const carriers = account.filter((weight) => weight.packages.some((p) => p.name === '@popperjs/core')).map((weight) => weight.route);
    expect(carriers).toEqual([]);
  });

  it("Emotion inserts styles during render: its insertion hook is src/boot/emotion-insertion.ts, not its own", () => {
    const files = chunkClosure(readManifest(DIST), ['index.html', ...screenModules(ROUTES.find((route) => route.path === 'account/profile') as RouteEntry)]).map((file) =>
      readFileSync(path.join(DIST, file), 'utf8'),
    );
    // Emotion's own @emotion/use-insertion-effect-with-fallbacks, as the minifier writes it: React's insertion
    // effect when React has one. vite.config.ts aliases the module for the build; should the alias stop
    // matching (a rename in Emotion), this is back in the bundle and styles insert in the commit again.
    expect(files.some((code) => /\.useInsertionEffect\?[\w$]+\.useInsertionEffect:/.test(code))).toBe(false);
    // The frame's code is there and styles with Emotion (its sheet's attribute), so the absence above means something.
    expect(files.some((code) => code.includes('data-emotion'))).toBe(true);
  });

  it("the entry's evaluation is cut into tasks: the yields of src/boot/ sit between its parts, none above 45% of it", () => {
    const files = chunkClosure(readManifest(DIST), ['index.html']).map((file) => readFileSync(path.join(DIST, file), 'utf8'));
    const entry = files.reduce((largest, code) => (code.length > largest.length ? code : largest), '');
    // yieldToBrowser, as the minifier writes it: a function returning a promise that a zero timeout resolves.
    const yielder = /function ([\w$]+)\(\)\{return new Promise\(([\w$]+)=>setTimeout\(\2,0\)\)\}/.exec(entry)?.[1];
    expect(yielder, 'yieldToBrowser is not in the entry chunk').toBeDefined();
    const awaits = [...entry.matchAll(new RegExp(`await ${(yielder ?? '').replace(/\$/g, '\\$')}\\(\\)`, 'g'))].map((match) => match.index ?? 0);
    expect(awaits.length).toBeGreaterThanOrEqual(7);
    expect(largestPartShare(entry, awaits)).toBeLessThan(0.45);
  });

  it("the signed-in frame's shared chunk yields after qs, Refine's core and Refine's MUI package (vite.config.ts, YIELD_AFTER)", () => {
    const files = chunkClosure(readManifest(DIST), screenModules(ROUTES.find((route) => route.path === 'account/profile') as RouteEntry));
    const frameFile = files.find((file) => path.basename(file).startsWith('account-frame-'));
    expect(frameFile, "the profile loads no 'account-frame' chunk (scripts/route-chunks.ts)").toBeDefined();
    const frame = readFileSync(path.join(DIST, frameFile ?? ''), 'utf8');
    // The await the build appends to each module YIELD_AFTER names, as the minifier writes it.
    const yields = [...frame.matchAll(/await new Promise\(([\w$]+)=>setTimeout\(\1,0\)\)/g)].map((match) => match.index ?? 0);
    expect(yields).toHaveLength(3);
    expect(largestPartShare(frame, yields)).toBeLessThan(0.4);
  });
});
