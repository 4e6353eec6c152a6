import { describe, expect, it } from 'vitest';
import { isAdminPath } from '../../src/routing/guard.js';
import { plannedRoutes, ROUTES, type RouteEntry } from '../../src/routing/routes.js';

function route(path: string): RouteEntry {
  const found = ROUTES.find((entry) => entry.path === path);
  if (!found) throw new Error(`route ${JSON.stringify(path)} is not registered`);
  return found;
}

describe('route table (spec section 2)', () => {
  it('routes still showing the planned ("coming soon") state', () => {
    // Remove a path here when the issue that builds its screen lands.
    expect([...plannedRoutes()].sort()).toEqual([
      'admin/analytics',
      'admin/analytics/android',
      'admin/analytics/metapc-store',
      'admin/analytics/perpetual-2024',
      'admin/analytics/steam',
      'admin/analytics/subscription',
      'admin/analytics/viveport',
      'admin/cohort',
      'perpetual',
    ]);
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
    'account/device-manager',
    'checkout-new/:type/:priceId?',
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

  it('the root is the profile landing for signed-in users', () => {
    expect(route('')).toMatchObject({ access: 'user', titleKey: 'routes.profile' });
  });

  it('no path is registered twice', () => {
    const paths = ROUTES.map((entry) => entry.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('every admin/* route except admin/login needs the admin role', () => {
    const adminRoutes = ROUTES.filter((entry) => isAdminPath(entry.path) && entry.path !== 'admin/login');
    expect(adminRoutes.length).toBeGreaterThanOrEqual(4);
    for (const entry of adminRoutes) expect({ path: entry.path, access: entry.access }).toEqual({ path: entry.path, access: 'admin' });
  });

  it('only admin/* routes need the admin role', () => {
    for (const entry of ROUTES.filter((candidate) => candidate.access === 'admin')) {
      expect(isAdminPath(entry.path), entry.path).toBe(true);
    }
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
    'account/device-manager',
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
