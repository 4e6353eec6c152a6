import { matchResourceFromRoute, QS_PARSE_DEPTH, ResourceContext, type ParseFunction, type ResourceProps, type RouterProvider } from '@refinedev/core';
import reactRouterProvider from '@refinedev/react-router';
import { parse } from 'qs-esm';
import { useCallback, useContext } from 'react';
import { matchPath, useLocation, useParams } from 'react-router';

type ResourceMatch = ReturnType<typeof matchResourceFromRoute>;

/** Addresses remembered per resource list: a session visits a handful; a long one does not grow without end. */
const REMEMBERED_ADDRESSES = 64;
const matches = new WeakMap<ResourceProps[], Map<string, ResourceMatch>>();

/**
 * Which resource and action an address shows. Refine's React Router binding works it out anew in every
 * component that uses a Refine hook (each mounts its own memo), over every action of every resource:
 * 111 of the 236 ms of one task on a phone (4x CPU, /account/profile, 2026-11-26). The answer depends only
 * on the address and the resource list, so it is worked out once for each.
 */
export function resourceAt(pathname: string, resources: ResourceProps[]): ResourceMatch {
  let known = matches.get(resources);
  if (!known) {
    known = new Map();
    matches.set(resources, known);
  }
  let match = known.get(pathname);
  if (!match) {
    match = matchResourceFromRoute(pathname, resources);
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
  const { resource, action, matchedRoute } = resourceAt(pathname, resources);
  if (Object.keys(params).length === 0 && matchedRoute) params = matchPath(matchedRoute, pathname)?.params ?? {};
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
