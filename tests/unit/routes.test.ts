import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPermission } from '../../contract/permissions.js';
import { isAdminPath } from '../../src/routing/guard.js';
import { PAGE_MODULES, ROUTES, type RouteEntry } from '../../src/routing/routes.js';

function route(path: string): RouteEntry {
  const found = ROUTES.find((entry) => entry.path === path);
  if (!found) throw new Error(`route ${JSON.stringify(path)} is not registered`);
  return found;
}

describe('route table (spec section 2)', () => {
  it('no route shows a "coming soon" state: every route has a screen module of its own', () => {
    // The walking skeleton's placeholder screen is gone (issue "Usage analytics and cohorts").
    const pages = new Set(ROUTES.map((entry) => entry.page));
    for (const page of pages) {
      const file = path.resolve(import.meta.dirname, `../../src/pages/${PAGE_MODULES[page]}.tsx`);
      expect(existsSync(file), `${page}: ${file}`).toBe(true);
    }
    expect(Object.values(PAGE_MODULES).filter((module) => /planned/i.test(module))).toEqual([]);
  });

  it('each screen is a typed lazy import of the module the bundle budgets measure (src/pages/index.tsx, account-pages.ts)', () => {
    const sources = ['index.tsx', 'account-pages.ts'].map((file) => readFileSync(path.resolve(import.meta.dirname, '../../src/pages', file), 'utf8')).join('\n');
    for (const [name, module] of Object.entries(PAGE_MODULES)) expect(sources, name).toContain(`${name}: () => import('./${module}.js')`);
  });

  it.each([
    ['admin/analytics', 'analytics'],
    ['admin/analytics/steam', 'analytics'],
    ['admin/analytics/subscription', 'analytics'],
    ['admin/analytics/metapc-store', 'analytics'],
    ['admin/analytics/perpetual-2024', 'analytics'],
    ['admin/analytics/viveport', 'analytics'],
    ['admin/analytics/android', 'analytics'],
    ['admin/cohort', 'cohort'],
    ['perpetual', 'perpetualProducts'],
  ] as const)('%s shows the %s screen', (path, page) => {
    expect(route(path).page).toBe(page);
  });

  it.each([
    'login',
    'registration',
    'registration/success',
    'registration/siggraph2023',
    'forgot-password',
    'forgot-password/validate/:token',
    'terms',
    'privacy-policy',
    'users/confirm',
    'users/validate/:token',
    'checkout/:type/:tab/:priceId?',
    'google/redirect',
    'facebook/redirect',
    'google/connect',
    'facebook/connect',
    'facebook/disconnect',
    'paypal/return',
    'paypal/cancel',
    'account/profile',
    'account/subscription',
    'account/subscription/choose-plan',
    'account/payment-options',
    'account/billing-info',
    'account/purchase-history',
    'account/licences',
    'account/device-manager',
    'account/security',
    'checkout-new/:type/:priceId?',
    'perpetual',
    'perpetual/success',
    'subscription/success',
    'admin/login',
    'admin/analytics',
    'admin/cohort',
    'admin/users',
    'admin/shapelab-lite',
    '*',
  ])('every route of spec section 2 is registered: %s', (path) => {
    expect(ROUTES.map((entry) => entry.path)).toContain(path);
  });

  it('the root is the account home for signed-in users (issue 20), first in the account menu; the full profile stays at account/profile', () => {
    expect(route('')).toMatchObject({ access: 'user', titleKey: 'routes.home', page: 'home', resource: 'overview', menu: 'account' });
    expect(route('account/profile')).toMatchObject({ access: 'user', titleKey: 'routes.profile', page: 'profile', menu: 'account' });
    expect(ROUTES.filter((entry) => entry.menu === 'account')[0]?.path).toBe('');
  });

  it('no path is registered twice', () => {
    const paths = ROUTES.map((entry) => entry.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('every admin/* route except admin/login needs a staff permission (issue 47)', () => {
    const adminRoutes = ROUTES.filter((entry) => isAdminPath(entry.path) && entry.path !== 'admin/login');
    expect(adminRoutes.length).toBeGreaterThanOrEqual(4);
    for (const entry of adminRoutes) expect(isPermission(entry.access), entry.path).toBe(true);
  });

  it('only admin/* routes need a staff permission', () => {
    for (const entry of ROUTES.filter((candidate) => isPermission(candidate.access))) {
      expect(isAdminPath(entry.path), entry.path).toBe(true);
    }
  });

  it.each([
    ['admin/users', 'users.read'],
    ['admin/users/:id', 'users.read'],
    ['admin/analytics', 'analytics.read'],
    ['admin/cohort', 'analytics.read'],
    ['admin/analytics/steam', 'analytics.read'],
    ['admin/shapelab-lite', 'liteKeys.manage'],
    ['admin/jobs', 'jobs.read'],
    ['admin/audit', 'audit.read'],
  ])('%s needs %s (what the server checks behind it)', (path, permission) => {
    expect(route(path).access).toBe(permission);
  });

  it.each(['login', 'registration', 'forgot-password', 'admin/login'])('%s is anonymous-only', (path) => {
    expect(route(path).access).toBe('anonymous');
  });

  it.each([
    'account/profile',
    'account/subscription',
    'account/subscription/choose-plan',
    'account/payment-options',
    'account/billing-info',
    'account/purchase-history',
    'account/licences',
    'account/device-manager',
    'account/security',
    'checkout-new/:type/:priceId?',
    'perpetual/success',
    'subscription/success',
  ])('%s needs a signed-in user (User and Admin)', (path) => {
    expect(route(path).access).toBe('user');
  });

  it.each(['terms', 'privacy-policy', '*'])('%s is public', (path) => {
    expect(route(path).access).toBe('public');
  });
});
