import { useCan } from '@refinedev/core';
import { useDeferredValue, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useLocale } from '../components/LocaleScope.js';
import { Staggered } from '../components/Staggered.js';
import type { ResourceName } from './routes.js';
import { paths } from './paths.js';

/**
 * A signed-in screen shows only when the access control provider lets the user see its resource
 * (spec section 6: admin screens need the admin role); otherwise the user goes to the root (spec
 * section 2). The server checks every call again. A lazy chunk of the signed-in frame: public pages never
 * load Refine.
 *
 * The answer arrives as a query-store update, which React renders synchronously; the screen it lets
 * through mounts from a deferred copy of it instead, in a transition that React renders in slices (a whole
 * screen mounted in one piece was a 200 ms task on a phone, Lighthouse's total blocking time). The screen also
 * commits after the frame, not with it (Staggered): two shorter tasks instead of one, and the frame paints
 * first (Lighthouse on /account/profile: 74, 71, 80 before, 79, 91, 92 after, with the profile's sections
 * staggered too). Only a page load's first screen waits that commit: every signed-in route renders its gate
 * at the same place in the tree, so React keeps the one gate from screen to screen, already revealed, and a
 * screen reached inside the app replaces the one before in a single commit (tests/e2e/data-layer.test.ts).
 */
export default function AccessGate({ resource, children }: { resource: ResourceName; children: ReactNode }) {
  const { localize } = useLocale();
  const { data } = useCan({ resource, action: 'list' });
  const can = useDeferredValue(data?.can);
  if (can === undefined) return null;
  return can ? <Staggered>{children}</Staggered> : <Navigate to={localize(paths.home)} replace />;
}
