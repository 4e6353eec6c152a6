import { matchResourceFromRoute, ResourceContext } from '@refinedev/core';
import reactRouterProvider from '@refinedev/react-router';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { matchPath, MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { resources } from '../../src/refine.js';
import { resourceAt, routerProvider } from '../../src/routing/routerProvider.js';
import { ROUTES } from '../../src/routing/routes.js';

/** Each route of the table as an address: parameters filled in, optional ones left out. */
const addresses = ROUTES.filter((route) => route.path !== '*').map((route) =>
  `/${route.path}`
    .split('/')
    .filter((part) => !part.endsWith('?'))
    .map((part) => (part.startsWith(':') ? `${part.slice(1)}-1` : part))
    .join('/'),
);

describe('the router binding finds an address’s resource once', () => {
  it('answers as Refine’s own matcher for every route of the table, and the same answer the second time', () => {
    expect(addresses.length).toBeGreaterThan(20);
    for (const address of addresses) {
      const first = resourceAt(address, resources);
      const { routeParams, ...match } = first;
      const refines = matchResourceFromRoute(address, resources);
      expect(match, address).toEqual(refines);
      expect(routeParams, address).toEqual((refines.matchedRoute && matchPath(refines.matchedRoute, address)?.params) || {});
      expect(resourceAt(address, resources), address).toBe(first);
    }
    expect(resourceAt('/admin/users/u-7', resources)).toMatchObject({ resource: { name: 'users' }, routeParams: { id: 'u-7' } });
  });

  it('gives a component the same parse function in every render of one address, so what Refine derives from it is kept', () => {
    const wrapper = ({ children }: { children: ReactNode }) => (
      <ResourceContext.Provider value={{ resources }}>
        <MemoryRouter initialEntries={['/admin/users/u-7']}>{children}</MemoryRouter>
      </ResourceContext.Provider>
    );
    const { result, rerender } = renderHook(() => (routerProvider.parse as () => () => unknown)(), { wrapper });
    const first = result.current;
    rerender();
    expect(result.current).toBe(first);
    expect(first()).toMatchObject({ resource: { name: 'users' }, id: 'u-7' });
  });

  it('parses an address as @refinedev/react-router does: resource, action, id, path and query parameters', () => {
    const parseAt = (parse: typeof routerProvider.parse, entry: string) => {
      const wrapper = ({ children }: { children: ReactNode }) => (
        <ResourceContext.Provider value={{ resources }}>
          <MemoryRouter initialEntries={[entry]}>{children}</MemoryRouter>
        </ResourceContext.Provider>
      );
      return renderHook(() => (parse as () => () => unknown)()(), { wrapper }).result.current;
    };
    for (const entry of [
      '/admin/users?currentPage=2&pageSize=25&sorters[0][field]=email&sorters[0][order]=asc',
      '/admin/users/u%207?to=%2Faccount',
      '/account/profile',
      '/account/device-manager?pageSize=10x',
      '/no/such/page',
    ]) {
      expect(parseAt(routerProvider.parse, entry), entry).toEqual(parseAt(reactRouterProvider.parse, entry));
    }
    expect(parseAt(routerProvider.parse, '/admin/users/u%207')).toMatchObject({ resource: { name: 'users' }, action: 'show', id: 'u 7' });
  });
});
