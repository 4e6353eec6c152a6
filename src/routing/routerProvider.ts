import { matchResourceFromRoute, QS_PARSE_DEPTH, ResourceContext, type ParseFunction, type ResourceProps, type RouterProvider } from '@refinedev/core';
import reactRouterProvider from '@refinedev/react-router';
import { parse } from 'qs-esm';
import { useCallback, useContext } from 'react';
import { matchPath, useLocation, useParams } from 'react-router';

type ResourceMatch = ReturnType<typeof matchResourceFromRoute> & {
  /** The address's parameters under the matched resource route (`{ id }` of `/admin/users/:id`). */
  routeParams: Record<string, string | undefined>;
};

/** Addresses remembered per resource list: a session visits a handful; a long one does not grow without end. */
const REMEMBERED_ADDRESSES = 64;
const matches = new WeakMap<ResourceProps[], Map<string, ResourceMatch>>();

/**
 * Which resource and action an address shows, and its parameters under that resource's route. Refine's
 * React Router binding works it out anew in every component that uses a Refine hook (each mounts its own
 * memo), over every action of every resource: 111 of the 236 ms of one task on a phone (4x CPU,
 * /account/profile, 2026-11-26). The parameters took React Router's `matchPath`, which compiles the
 * route's pattern each time: about 20 ms of the profile's details form at 4x, called from each of
 * Refine's hooks (2026-11-27). Both depend only on the address and the resource list, so they are worked
 * out once for each; the parameters are then the same object in every render.
 */
export function resourceAt(pathname: string, resources: ResourceProps[]): ResourceMatch {
  let known = matches.get(resources);
  if (!known) {
    known = new Map();
    matches.set(resources, known);
  }
  let match = known.get(pathname);
  if (!match) {
    const found = matchResourceFromRoute(pathname, resources);
    match = { ...found, routeParams: (found.matchedRoute && matchPath(found.matchedRoute, pathname)?.params) || {} };
    if (known.size >= REMEMBERED_ADDRESSES) known.delete(known.keys().next().value as string);
    known.set(pathname, match);
  }
  return match;
}

/** A query-string value that reads as a number is one ('2' is 2, '02' stays text), as Refine's binding does. */
function numberIfPossible(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const number = Number(value);
  return `${number}` === value ? number : value;
}

/**
 * Refine's `parse` over React Router, as `@refinedev/react-router` has it (the resource and action of the
 * address, its id, and its path and query parameters), with the resource found once per address.
 */
function useParse(): ParseFunction {
  let params: Record<string, string | undefined> = useParams();
  const { pathname, search } = useLocation();
  const { resources } = useContext(ResourceContext);
  const { resource, action, routeParams } = resourceAt(pathname, resources);
  if (Object.keys(params).length === 0) params = routeParams;
  return useCallback(() => {
    const combined: Record<string, unknown> = { ...params, ...parse(search, { ignoreQueryPrefix: true, depth: QS_PARSE_DEPTH }) };
    return {
      ...(resource ? { resource } : {}),
      ...(action ? { action } : {}),
      ...(params.id ? { id: decodeURIComponent(params.id) } : {}),
      pathname,
      params: {
        ...combined,
        currentPage: numberIfPossible(combined.currentPage) as number | undefined,
        pageSize: numberIfPossible(combined.pageSize) as number | undefined,
        to: typeof combined.to === 'string' ? decodeURIComponent(combined.to) : undefined,
      },
    };
  }, [pathname, search, params, resource, action]);
}

/** React Router's binding for Refine, with `parse` finding an address's resource once. */
export const routerProvider: RouterProvider = { ...reactRouterProvider, parse: useParse };
