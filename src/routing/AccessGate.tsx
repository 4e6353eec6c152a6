import { useCan, useGetIdentity } from '@refinedev/core';
import { useDeferredValue, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useLocale } from '../components/LocaleScope.js';
import { Staggered } from '../components/Staggered.js';
import type { Me } from '../../contract/users.js';
import { landingOf } from './menu.js';
import type { ResourceName } from './routes.js';

/**
 * A signed-in screen shows only when the access control provider lets the user see its resource
 * (spec section 6, issue 47: an admin screen needs its permission); otherwise the user goes to the first
 * screen they may see: staff to theirs in the admin area, everyone else to the root (spec section 2). The
 * server checks every call again. A lazy chunk of the signed-in frame: public pages never load Refine.
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
  const { data: user, isLoading } = useGetIdentity<Me>();
  const can = useDeferredValue(data?.can);
  // Where a refusal leads depends on who it is: their permissions, read with the session (primed at start).
  if (can === undefined || (!can && isLoading)) return null;
  return can ? <Staggered>{children}</Staggered> : <Navigate to={localize(landingOf(user?.permissions))} replace />;
}
