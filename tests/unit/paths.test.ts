import { matchPath } from 'react-router';
import { describe, expect, it } from 'vitest';
import { fillPath, paths } from '../../src/routing/paths.js';
import { ROUTES, SCREEN_PATHS, type PageName } from '../../src/routing/routes.js';

/** The route an address (path and query) opens, as the router matches it. */
function pageAt(address: string): PageName | undefined {
  const pathname = new URL(address, 'http://portal.test').pathname;
  return ROUTES.find((route) => route.path !== '*' && matchPath(`/${route.path}`, pathname))?.page;
}

describe("the screens' addresses (issue 45: paths only from the route table)", () => {
  it('every named path is a route of the table, and every route of the table is named', () => {
    expect(new Set(Object.values(SCREEN_PATHS))).toEqual(new Set(ROUTES.map((route) => route.path)));
  });

  it('every screen without parameters has its address, which opens that screen', () => {
    for (const [name, pattern] of Object.entries(SCREEN_PATHS)) {
      if (pattern.includes(':') || pattern === '*') continue;
      // A screen whose address may carry a query (the code page's address) builds it without one.
      const built = (paths as Record<string, unknown>)[name];
      const address = typeof built === 'function' ? (built as () => unknown)() : built;
      expect(address, name).toBe(`/${pattern}`);
      expect(pageAt(address as string), name).toBe(ROUTES.find((route) => route.path === pattern)?.page);
    }
    expect(paths.home).toBe('/');
  });

  it.each([
    [paths.checkoutNew('subscription'), '/checkout-new/subscription', 'checkoutNew'],
    [paths.checkoutNew('perpetual', 'pri_01', '?discount=dsc_1'), '/checkout-new/perpetual/pri_01?discount=dsc_1', 'checkoutNew'],
    [paths.checkoutNew('subscription', null), '/checkout-new/subscription', 'checkoutNew'],
    [paths.externalCheckout('perpetual', 'login', 'pri_02', '?discountCode=HB'), '/checkout/perpetual/login/pri_02?discountCode=HB', 'externalCheckout'],
    [paths.externalCheckout('subscription', 'registration'), '/checkout/subscription/registration', 'externalCheckout'],
    [paths.userShow('u 1/2'), '/admin/users/u%201%2F2', 'userShow'],
    [paths.confirmCode('a+b@shapelab.test'), '/users/confirm?email=a%2Bb%40shapelab.test', 'confirmCode'],
    [paths.confirmCode(), '/users/confirm', 'confirmCode'],
    [paths.loginAfterDeletion, '/login?deleted=1', 'login'],
    [paths.purchaseSuccess('subscription'), '/subscription/success', 'purchaseSuccess'],
    [paths.purchaseSuccess('perpetual'), '/perpetual/success', 'purchaseSuccess'],
    [paths.socialReturn('google', 'connect'), '/google/connect', 'socialAccount'],
    [paths.socialReturn('facebook', 'disconnect'), '/facebook/disconnect', 'socialAccount'],
    [paths.socialReturn('facebook', 'redirect'), '/facebook/redirect', 'socialCallback'],
  ] as const)('%s is %s, the %s screen', (built, address, page) => {
    expect(built).toBe(address);
    expect(pageAt(built)).toBe(page);
  });

  it('a parameter is one encoded segment; a missing required one is an error, not a broken address', () => {
    expect(matchPath(`/${SCREEN_PATHS.userShow}`, paths.userShow('a/b'))?.params).toEqual({ id: 'a/b' });
    expect(() => fillPath(SCREEN_PATHS.userShow, { id: '' })).toThrow('admin/users/:id needs id');
  });
});
