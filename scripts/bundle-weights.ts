import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { MODULES_REPORT, type ModulesReport } from './bundle-report-plugin.js';
import { ACCESS_GATE_MODULE, ACCOUNT_LAYOUT_MODULE, ACCOUNT_PAGES_MODULE, PAGE_MODULES, REFINE_MODULE, ROUTES, type RouteEntry } from '../src/routing/routes.js';
import { isAdminPath } from '../src/routing/guard.js';

/**
 * JavaScript weight per route, from the production build's manifest: the entry chunk and everything it
 * imports statically, plus the route's lazy frame and page chunks with their static imports, gzipped
 * (zlib level 9, as the server's precompressed copies). Shared by the budget test and `npm run bench:bundle`.
 */
const KB = 1000;
export const BUDGETS = {
  signIn: 160 * KB,
  account: 350 * KB,
  admin: 550 * KB,
} as const;

/** Public pages where the DataGrid, the charts and the payment client must never load. */
export const FORBIDDEN_ON_PUBLIC = ['@mui/x-data-grid', '@mui/x-charts', '@paddle/paddle-js'];
const SIGN_IN_ROUTES = new Set(['login', 'registration', 'registration/siggraph2023', 'forgot-password', 'admin/login']);

interface ManifestEntry {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestEntry>;

export function readManifest(distDir: string): Manifest {
  const manifestFile = path.join(distDir, '.vite', 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`No build manifest at ${manifestFile}: run npm run build`);
  return JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
}

/** The output files of the given manifest keys and of everything they import statically. */
export function chunkClosure(manifest: Manifest, keys: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const entry = manifest[key];
    if (!entry) throw new Error(`Manifest has no entry for ${key}`);
    seen.add(key);
    for (const imported of entry.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return [...seen].map((key) => (manifest[key] as ManifestEntry).file);
}

/**
 * What a screen loads on demand rather than as it first shows: after a click (a dialog), or as the reader
 * comes to it (the home's profile sections, below the overview, drawn only once they come on screen or the
 * user scrolls, taps or types: src/components/Staggered.tsx). Left out of the first screen's lazy parts
 * below, so the page does not name them for preloading: the home's sections were twelve chunks downloaded
 * beside the overview's code and data on every first visit, which nothing on a phone's first screen shows.
 */
export const ON_DEMAND_MODULES = new Set([
  // Issue 44: the sign-in's second step, asked for by an account with a second factor, and the passkey
  // ceremonies (WebAuthn), run on a click or offered once the page is idle.
  'src/pages/auth/TwoFactorForm.tsx',
  'src/pages/auth/passkeySignIn.ts',
  // Issue 44: the security page's dialogs and the authenticator app's setup (with the QR code), opened by a
  // click, and the passkey ceremony behind "Add a passkey".
  'src/pages/account/security/ReauthDialog.tsx',
  'src/pages/account/security/PasskeyNameDialog.tsx',
  'src/pages/account/security/TotpSetup.tsx',
  'src/passkeys/webauthn.ts',
  'src/pages/account/profile/ChangeEmail.tsx',
  'src/pages/account/profile/ProfileSections.tsx',
  'src/pages/checkout/new/DiscountDialog.tsx',
  'src/pages/checkout/new/RegionDialog.tsx',
]);

/**
 * Packages loaded on demand wherever they are imported: zxcvbn and its dictionaries (about a megabyte), once
 * a person types a new password (contract/password-strength.ts, issue 44), never named for preloading.
 */
export const ON_DEMAND_PACKAGES = ['node_modules/@zxcvbn-ts/'];

/** Whether a lazily imported module (a manifest key) loads on demand rather than as its screen first shows. */
export function isOnDemand(key: string): boolean {
  return ON_DEMAND_MODULES.has(key) || ON_DEMAND_PACKAGES.some((prefix) => key.startsWith(prefix));
}

/**
 * What a screen loads only on a wide screen (the admin users' grid; a phone shows cards): not among the parts
 * the page names for preloading, which would cost a phone the download, but counted in the route's weight,
 * which is the widest screen's.
 */
export const WIDE_SCREEN_MODULES = new Set(['src/pages/admin/users/UsersGrid.tsx']);

/**
 * The lazy parts a screen renders as it first shows (the profile's sections, lazy so that each evaluates in
 * a task of its own): the modules its page imports dynamically, at any depth, except those loaded on demand.
 * The entry's chunks are not followed: they import every screen dynamically.
 */
export function lazyScreenParts(manifest: Manifest, route: RouteEntry): string[] {
  const parts = new Set<string>();
  const seen = new Set<string>();
  const entryFiles = new Set(chunkClosure(manifest, ['index.html']));
  const screens = new Set(Object.values(PAGE_MODULES).map((module) => `src/pages/${module}.tsx`));
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const entry = manifest[key];
    if (!entry) throw new Error(`Manifest has no entry for ${key}`);
    if (entryFiles.has(entry.file)) return;
    for (const imported of entry.imports ?? []) visit(imported);
    for (const lazy of entry.dynamicImports ?? []) {
      if (isOnDemand(lazy) || WIDE_SCREEN_MODULES.has(lazy) || screens.has(lazy)) continue;
      parts.add(lazy);
      visit(lazy);
    }
  };
  visit(`src/pages/${PAGE_MODULES[route.page]}.tsx`);
  return [...parts];
}

/** The manifest keys of what a route's screen loads only on a wide screen (WIDE_SCREEN_MODULES). */
export function wideScreenParts(manifest: Manifest, route: RouteEntry): string[] {
  return (manifest[`src/pages/${PAGE_MODULES[route.page]}.tsx`]?.dynamicImports ?? []).filter((lazy) => WIDE_SCREEN_MODULES.has(lazy));
}

/** The manifest keys of a route's own code: its screen and, for a signed-in screen, the frame around it. */
export function screenModules(route: RouteEntry): string[] {
  const modules = [`src/pages/${PAGE_MODULES[route.page]}.tsx`];
  if (route.layout === 'account') modules.push(ACCOUNT_LAYOUT_MODULE, ACCOUNT_PAGES_MODULE, ACCESS_GATE_MODULE, REFINE_MODULE);
  return modules;
}

export interface RouteWeight {
  route: string;
  budget: number;
  bytes: number;
  chunks: { file: string; bytes: number }[];
  /** gzip bytes attributed to each npm package (by its share of each chunk), largest first. */
  packages: { name: string; bytes: number }[];
  forbidden: string[];
}

function budgetFor(route: RouteEntry): number {
  if (SIGN_IN_ROUTES.has(route.path)) return BUDGETS.signIn;
  // Issue 47: a staff screen needs a permission rather than a role; the admin area's budget is theirs.
  if (route.layout === 'account' && isAdminPath(route.path)) return BUDGETS.admin;
  return BUDGETS.account;
}

export function measureRoutes(distDir: string): RouteWeight[] {
  const manifest = readManifest(distDir);
  const report = JSON.parse(readFileSync(path.join(distDir, MODULES_REPORT), 'utf8')) as ModulesReport;
  const gzipCache = new Map<string, number>();
  const gzipBytes = (file: string) => {
    let size = gzipCache.get(file);
    if (size === undefined) {
      size = gzipSync(readFileSync(path.join(distDir, file)), { level: 9 }).length;
      gzipCache.set(file, size);
    }
    return size;
  };

  return ROUTES.map((route) => {
    // The entry, the screen (with what it loads on a wide screen only), and one language's texts (en; de is
    // the same size, held by the locale tests).
    const roots = ['index.html', ...screenModules(route), ...wideScreenParts(manifest, route), 'locales/en/translation.json'];
    if (route.layout === 'account') roots.push('locales/en/account.json');
    const files = chunkClosure(manifest, roots).filter((file) => file.endsWith('.js'));
    const chunks = files.map((file) => ({ file, bytes: gzipBytes(file) })).sort((a, b) => b.bytes - a.bytes);
    const packages = new Map<string, number>();
    for (const chunk of chunks) {
      const parts = report[chunk.file] ?? { app: 1 };
      const total = Object.values(parts).reduce((sum, n) => sum + n, 0) || 1;
      for (const [name, rendered] of Object.entries(parts)) {
        packages.set(name, (packages.get(name) ?? 0) + (chunk.bytes * rendered) / total);
      }
    }
    const isPublic = route.access === 'public' || route.access === 'anonymous';
    return {
      route: `/${route.path}`,
      budget: budgetFor(route),
      bytes: chunks.reduce((sum, c) => sum + c.bytes, 0),
      chunks,
      packages: [...packages].map(([name, bytes]) => ({ name, bytes: Math.round(bytes) })).sort((a, b) => b.bytes - a.bytes),
      forbidden: isPublic ? FORBIDDEN_ON_PUBLIC.filter((name) => packages.has(name)) : [],
    };
  });
}

export function describeWeight(weight: RouteWeight): string {
  const kb = (n: number) => `${(n / KB).toFixed(1)} KB`;
  const top = weight.packages.slice(0, 8).map((p) => `${p.name} ${kb(p.bytes)}`).join(', ');
  return `${weight.route}: ${kb(weight.bytes)} of ${kb(weight.budget)} (${top})`;
}
